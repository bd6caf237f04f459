import { createHash } from 'node:crypto';
import type { StreamChunk } from '../../../src-preload/contract/stream';

/**
 * How the safety layers ask a person: through the app's approval mechanism (persisted
 * request, native dialog, headless deny) adapted above this layer (runner/safetyApprovals.ts).
 * The question's reason is what the approval card shows: the screener's sentence, or the
 * cell's flagged lines.
 */
export interface SafetyQuestion {
  sessionId: string;
  runId: string | null;
  /** `biosecurity_screen` or `cell_review`. */
  tool: string;
  target: string;
  reason: string;
  /** More for the card: the flagged lines, the pre-scan hits. */
  detail: string;
  origin: 'tool' | 'cell';
  cellId?: string;
  /** Where the approval card is streamed (a run's chunks); absent for a cell the user runs. */
  emit?: (chunk: StreamChunk) => void;
}

export interface SafetyAnswer {
  allowed: boolean;
  requestId: string | null;
  /** Why it was not allowed, in words the model and the user read (a headless run says so). */
  note: string;
}

export interface SafetyApprovalPort {
  ask(question: SafetyQuestion, signal: AbortSignal): Promise<SafetyAnswer>;
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
