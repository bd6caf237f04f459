import { z } from 'zod';
import { route } from './define';
import type { RunRecord, SessionSummary } from './sessions';

/**
 * "Try the demo": the insulin story replayed in a new session from recorded model
 * replies and recorded UniProt/RCSB answers (no key needed). The kernel, evidence,
 * artifacts and ledger are real; the session is labelled as a replay.
 */
export const demoRoutes = {
  'demo.start': route<{ session: SessionSummary; run: RunRecord }>()(z.object({}).strict().default({})),
};
