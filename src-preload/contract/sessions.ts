import { z } from 'zod';
import { route } from './define';
import type { ChunkPage, FoldedHistory } from './chunkPage';
import type { StreamChunk, UIMessage } from './stream';

/**
 * Sessions: the conversations of the ledger, their runs, and their folded history.
 * Run statuses and failure codes follow seeds/research-assistant-request.txt (DESIGN.md:
 * Engine), plus `interrupted`: the app stopped in the middle of an action whose effect
 * is therefore unknown (crash repair; nothing is replayed), and `internal`.
 */

export const runStatusSchema = z.enum(['queued', 'processing', 'completed', 'failed', 'cancelled', 'expired', 'unavailable']);
export type RunStatus = z.infer<typeof runStatusSchema>;

export const failureCodeSchema = z.enum([
  'not_configured',
  'budget_exhausted',
  'access_changed',
  'source_unavailable',
  'context_changed',
  'input_too_large',
  'provider_unavailable',
  'generation_unconfirmed',
  'invalid_output',
  'cancelled',
  'expired',
  'conversation_full',
  'interrupted',
  // A safety layer (biosecurity screening) ended the run with a refusal the user reads.
  'refused',
  // An unexpected error inside the app itself (a bug), named so it is never mistaken for a provider failure.
  'internal',
]);
export type FailureCode = z.infer<typeof failureCodeSchema>;

export interface SessionSummary {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  /** Bumped by every mutation (a submitted message, a rename); clients send it back as `expectedRevision`. */
  revision: number;
}

export interface RunUsage {
  inputTokens?: number;
  outputTokens?: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
  totalTokens?: number;
}

export interface RunRecord {
  id: string;
  sessionId: string;
  mutationId: string;
  /** The user's message text that started the run. */
  message: string;
  status: RunStatus;
  failureCode: FailureCode | null;
  failureMessage: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  provider: string | null;
  model: string | null;
  usage: RunUsage | null;
  costUsd: number | null;
  /** Set on a child agent's run (delegation): the run that started it. Absent on a user's run. */
  parentRunId?: string;
  /** A child run's depth below the user's run (1..4); absent on a user's run (depth 0). */
  depth?: number;
}

export interface SessionDetail {
  session: SessionSummary;
  runs: RunRecord[];
  /** The last `seq` of the session's stream (0 when empty). */
  lastSeq: number;
}

/**
 * A session opened at its end (`session.open`): its detail and its last turns, the chunks
 * from `fromSeq` (where a user turn starts) to `lastSeq`, enough to fold and show what the
 * window shows first. The chunks before `fromSeq` are read with `session.earlier`
 * (`beforeSeq: fromSeq`) and folded in front (contract/fold.ts `foldStateAt`).
 */
export interface SessionOpening extends SessionDetail {
  fromSeq: number;
  events: SessionStreamEvent[];
}

/** At least this many of a session's last chunks come with `session.open` (whole turns: usually a few more). */
export const OPEN_TAIL_CHUNKS = 2_000;

export interface SessionHistory {
  sessionId: string;
  lastSeq: number;
  messages: UIMessage[];
}

/** The `session.stream` event: one chunk, after the ledger has stored it. */
export interface SessionStreamEvent {
  sessionId: string;
  seq: number;
  runId: string | null;
  chunk: StreamChunk;
}

const sessionId = z.string().min(1).max(200);
const title = z.string().trim().min(1).max(200);

export const sessionRoutes = {
  'session.create': route<SessionSummary>()(z.object({ title: title.optional() }).strict().default({})),
  'session.list': route<SessionSummary[]>()(z.object({}).strict().default({})),
  'session.get': route<SessionDetail>()(z.object({ sessionId }).strict()),
  'session.open': route<SessionOpening>()(z.object({ sessionId, tailChunks: z.number().int().min(1).max(100_000).optional() }).strict()),
  /** The chunks after `afterSeq` and before `beforeSeq` (the `fromSeq` of `session.open`), at most `limit`. */
  'session.earlier': route<ChunkPage>()(
    z
      .object({
        sessionId,
        afterSeq: z.number().int().min(0),
        beforeSeq: z.number().int().min(1),
        limit: z.number().int().min(1).max(10_000).default(2_000),
      })
      .strict(),
  ),
  /**
   * The session's history before `beforeSeq` as far as it is stored folded (the app folds a
   * session's ended turns when the next one starts); the chunks after `throughSeq` come with `session.earlier`.
   */
  'session.folded': route<FoldedHistory>()(z.object({ sessionId, beforeSeq: z.number().int().min(1) }).strict()),
  'session.rename': route<SessionSummary>()(
    z.object({ sessionId, title, expectedRevision: z.number().int().positive().optional() }).strict(),
  ),
  'session.delete': route<{ deleted: true }>()(z.object({ sessionId }).strict()),
};
