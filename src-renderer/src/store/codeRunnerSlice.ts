import { toErrorBody } from '../api/bridge';
import type { CodeRunnerSlice, Slice, StoreDeps } from './types';

/**
 * The kernel panel's "Run code" box: the user's own cell in the open session's kernel
 * (`kernel.execute`), one at a time, with its result kept until the next run.
 */
export const createCodeRunnerSlice =
  (deps: StoreDeps): Slice<CodeRunnerSlice> =>
  (set, get) => ({
    codeRun: { sessionId: null, language: 'python', code: '', status: 'idle', result: null, error: null },

    setCodeDraft(patch) {
      set((s) => ({ codeRun: { ...s.codeRun, ...patch } }));
    },

    async runCode(sessionId) {
      const { codeRun } = get();
      if (codeRun.status === 'running' || !codeRun.code.trim()) return;
      const { language, code } = codeRun;
      set((s) => ({ codeRun: { ...s.codeRun, sessionId, status: 'running', result: null, error: null } }));
      try {
        const result = await deps.bridge.invoke('kernel.execute', { sessionId, language, code });
        set((s) => ({ codeRun: { ...s.codeRun, status: 'done', result: { code, result } } }));
        // A saved figure is read through the artifact list (the cell card's Figure looks it up there).
        if (result.displays.some((d) => d.path)) void get().loadArtifacts(sessionId);
      } catch (error) {
        set((s) => ({ codeRun: { ...s.codeRun, status: 'error', error: toErrorBody(error).message } }));
      }
      // The kernel may have started, or died: the rows above say so.
      if (get().kernels.sessionId === sessionId) await get().loadKernels(sessionId);
      // The run is recorded as a user cell: the notebook's list shows it.
      if (get().notebook.sessionId === sessionId) await get().loadNotebook(sessionId);
    },

    async interruptCode() {
      const { codeRun } = get();
      if (codeRun.status !== 'running' || !codeRun.sessionId) return;
      await get().runKernelAction(codeRun.sessionId, codeRun.language, 'interrupt');
    },
  });
