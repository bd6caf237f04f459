import { z } from 'zod';
import { MEMORY_MAX_CHARS } from '../../../../src-preload/contract/memory';
import type { MemoryService } from '../../memory/memories';
import { defineTool, type Tool } from '../define';

/**
 * The agent's memory (issue 19): remember keeps a fact or preference (this session, or
 * every session of the data root), forget drops one by id. Both are found on demand; the
 * memories themselves are listed in every request (standing context), ids included. A cell
 * reaches the same with host.remember(text=..., scope=...) and host.forget(id=...). The
 * service refuses anything that looks like a key.
 */
export function memoryTools(memory: () => MemoryService): Tool[] {
  const remember = defineTool({
    name: 'remember',
    description: 'Add to memory: keep a short fact or preference across turns (never a key or password). scope: "session" (default) or "data_root" (all sessions).',
    input: z
      .object({
        text: z.string().min(1).max(MEMORY_MAX_CHARS),
        scope: z.enum(['session', 'data_root']).default('session'),
      })
      .strict(),
    sideEffect: 'write',
    defaultPolicy: 'allow',
    onDemand: true,
    hostMethods: ['remember', 'memory.remember'],
    resourceKeys: () => ['memory'],
    target: (a) => a.scope,
    async execute(a, ctx) {
      const m = memory().remember({ text: a.text, scope: a.scope, sessionId: ctx.sessionId, origin: 'agent', runId: ctx.runId });
      return { text: `Remembered as ${m.id} (${m.scope === 'session' ? 'this session' : 'all sessions of this data root'}).`, output: { memory: m } };
    },
  });
  const forget = defineTool({
    name: 'forget',
    description: 'Forget a memory by its id (mem_…), when it is wrong or no longer wanted.',
    input: z.object({ id: z.string().regex(/^mem_[A-Za-z0-9]{8,40}$/, 'a memory id as listed under "Memory" (mem_…)') }).strict(),
    sideEffect: 'write',
    defaultPolicy: 'allow',
    onDemand: true,
    hostMethods: ['forget', 'memory.forget'],
    resourceKeys: () => ['memory'],
    target: (a) => a.id,
    async execute(a, ctx) {
      const m = memory().forget(a.id, 'agent', ctx.sessionId, ctx.runId);
      return { text: `Forgot ${m.id}: "${m.text}".`, output: { forgotten: m } };
    },
  });
  return [remember, forget];
}
