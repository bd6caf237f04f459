import { z } from 'zod';
import { route } from './define';

const sessionId = z.string().min(1).max(200);
const runId = z.string().trim().min(1).max(200);

/**
 * Child agents (issue 20). The user may stop a child (and everything it started) from its
 * card in the conversation; the parent then reads it as stopped when it collects.
 */
export const delegationRoutes = {
  'delegation.stop': route<{ stopped: string[] }>()(z.object({ sessionId, runId }).strict()),
};
