import { z } from 'zod';
import { route } from './define';
import type { RunRecord, SessionStreamEvent } from './sessions';

const sessionId = z.string().min(1).max(200);
const id = z.string().trim().min(1).max(200);

export interface ReplayResult {
  events: SessionStreamEvent[];
  lastSeq: number;
  /** False when more than `limit` events were missing: reload the session (`session.get`, then `session.replay` from seq 0). */
  complete: boolean;
}

export interface RunState {
  active: string | null;
  queued: string[];
}

/** The longest message a user may send, in characters, from the app and the CLI alike. */
export const MAX_MESSAGE_CHARS = 20_000;
export const MESSAGE_TOO_LONG = `the message is longer than ${MAX_MESSAGE_CHARS.toLocaleString('en-US')} characters`;

/**
 * Runs: a user message and the agent turns it causes. `run.submit` is idempotent on
 * `mutationId` (a repeat returns the same run, never a second execution); a message
 * sent during a run is queued FIFO. `session.replay` gives a reconnecting renderer the
 * chunks it missed since its last seq.
 */
export const runRoutes = {
  'run.submit': route<RunRecord>()(
    z
      .object({
        sessionId,
        mutationId: id,
        message: z.string().trim().min(1, 'the message is empty').max(MAX_MESSAGE_CHARS, MESSAGE_TOO_LONG),
        expectedRevision: z.number().int().positive().optional(),
        provider: z.string().trim().min(1).max(64).optional(),
        model: z.string().trim().min(1).max(200).optional(),
        /** False: the agent may not start child agents for this message (the composer's switch). */
        delegation: z.boolean().optional(),
        /** Retry, regenerate or edit-and-resend: the finished run of this session this one replaces (it stays in the ledger). */
        supersedes: z.string().trim().min(1).max(200).optional(),
      })
      .strict(),
  ),
  'run.stop': route<{ stopped: string | null }>()(z.object({ sessionId }).strict()),
  'run.state': route<RunState>()(z.object({ sessionId }).strict()),
  'session.replay': route<ReplayResult>()(
    z
      .object({
        sessionId,
        afterSeq: z.number().int().min(0),
        limit: z.number().int().min(1).max(10_000).default(2_000),
      })
      .strict(),
  ),
};
