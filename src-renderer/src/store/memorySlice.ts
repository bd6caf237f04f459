import type { ErrorBody, MemoryRecord, ThinkingStepData } from '../../../src-preload/contract';
import { toErrorBody } from '../api/bridge';
import { createLoader, idle } from './loadable';
import type { MemorySlice, Slice, StoreDeps } from './types';

type MemoryList = MemorySlice['memories'];
type PlanField = MemorySlice['plan'];

/** Memory and plan (issue 19): what the Memory and Plan tabs show, and the user's changes to memories. */
export const createMemorySlice =
  (deps: StoreDeps): Slice<MemorySlice> =>
  (set, get) => {
    const memories = createLoader<MemoryList>((change) => set((s) => ({ memories: change(s.memories) })));
    const plan = createLoader<PlanField>((change) => set((s) => ({ plan: change(s.plan) })));
    /** Runs a change, then reloads the list it changed; answers the error or null. */
    const change = async (run: () => Promise<unknown>): Promise<ErrorBody | null> => {
      try {
        await run();
      } catch (error) {
        return toErrorBody(error);
      }
      await get().loadMemories(get().memories.sessionId);
      return null;
    };
    return {
      memories: { ...idle<MemoryRecord[]>([]), sessionId: null },
      plan: { ...idle<ThinkingStepData[]>([]), sessionId: null },
      loadMemories: (sessionId) =>
        memories(
          async () => (await deps.bridge.invoke('memory.list', sessionId ? { sessionId } : {})).memories,
          // Another session's memories never show under this one while it loads.
          (field) => (field.sessionId === sessionId ? field : { ...field, sessionId, data: [] }),
        ),
      addMemory: (sessionId, text, scope) =>
        change(() => deps.bridge.invoke('memory.add', { text, scope, ...(sessionId ? { sessionId } : {}) })),
      editMemory: (id, text) => change(() => deps.bridge.invoke('memory.edit', { id, text })),
      forgetMemory: (id) => change(() => deps.bridge.invoke('memory.forget', { id })),
      loadPlan: (sessionId) =>
        plan(
          async () => (await deps.bridge.invoke('plan.get', { sessionId })).steps,
          (field) => (field.sessionId === sessionId ? field : { ...field, sessionId, data: [] }),
        ),
    };
  };
