import { z } from 'zod';
import { route } from './define';
import type { ThinkingStepData } from './dataParts';

/**
 * Memory and the visible plan (issue 19). A memory is a short fact or preference the agent
 * keeps across turns: for one session, or for every session of this data root. The user
 * sees, edits and deletes them (Memory panel); the agent's own are marked as such. The plan
 * is the agent's checklist (write_todos / update_plan_step), read back here for the panel.
 */

/** `session`: this session only (and its export); `data_root`: every session of this data root. */
export type MemoryScope = 'session' | 'data_root';
/** Who made the memory: the user in the Memory panel, or the agent (remember tool, host.remember). */
export type MemoryOrigin = 'user' | 'agent';

export interface MemoryRecord {
  id: string;
  text: string;
  scope: MemoryScope;
  /** The session it belongs to (session scope) or was made in (data-root scope; null when made outside one). */
  sessionId: string | null;
  origin: MemoryOrigin;
  createdAt: string;
  updatedAt: string;
  /** Who changed the text last, when someone edited it after it was made. */
  editedBy: MemoryOrigin | null;
}

export interface MemoryList {
  /** Current memories: the session's (when one was named) and the data root's, oldest first. */
  memories: MemoryRecord[];
}

export interface PlanView {
  sessionId: string;
  /** The session's current plan (the newest write_todos / update_plan_step), in order; empty when none. */
  steps: ThinkingStepData[];
}

/** Upper bound of one memory's text: a memory is a line or two, not a document. */
export const MEMORY_MAX_CHARS = 1000;

const sessionId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'a session id is 1-128 letters, digits, "_" or "-"');
const memoryId = z.string().regex(/^mem_[A-Za-z0-9]{8,40}$/, 'a memory id as memory.list shows it ("mem_…")');
const memoryText = z.string().trim().min(1, 'a memory needs some text').max(MEMORY_MAX_CHARS, `a memory is at most ${MEMORY_MAX_CHARS} characters`);
const scope = z.enum(['session', 'data_root']);

export const memoryRoutes = {
  'memory.list': route<MemoryList>()(z.object({ sessionId: sessionId.optional() }).strict().default({})),
  'memory.add': route<MemoryRecord>()(z.object({ text: memoryText, scope, sessionId: sessionId.optional() }).strict()),
  'memory.edit': route<MemoryRecord>()(z.object({ id: memoryId, text: memoryText }).strict()),
  'memory.forget': route<{ id: string }>()(z.object({ id: memoryId }).strict()),
  'plan.get': route<PlanView>()(z.object({ sessionId }).strict()),
};
