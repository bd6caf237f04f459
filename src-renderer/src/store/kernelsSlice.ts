import { errorNotice } from './noticesReducer';
import { createLoader, idle } from './loadable';
import type { KernelsSlice, Slice, StoreDeps } from './types';

/** The kernel panel: one session's Python and R kernels, with interrupt and restart. */
export const createKernelsSlice =
  (deps: StoreDeps): Slice<KernelsSlice> =>
  (set, get) => {
    const status = createLoader<KernelsSlice['kernels']>((change) =>
      set((s) => ({ kernels: change(s.kernels) })),
    );
    return {
      kernels: { ...idle(null), sessionId: null },
      kernelActions: {},

      loadKernels: (sessionId) =>
        status(
          () => deps.bridge.invoke('kernel.status', { sessionId }),
          // Another session's kernels never show under this one.
          (field) => (field.sessionId === sessionId ? field : { ...field, sessionId, data: null }),
        ),

      async runKernelAction(sessionId, language, action) {
        if (get().kernelActions[language]) return;
        set((s) => ({ kernelActions: { ...s.kernelActions, [language]: action } }));
        try {
          if (action === 'interrupt')
            await deps.bridge.invoke('kernel.interrupt', { sessionId, language });
          else await deps.bridge.invoke('kernel.restart', { sessionId, language });
        } catch (error) {
          get().receiveNotice(errorNotice(error));
        } finally {
          set((s) => {
            const { [language]: _done, ...rest } = s.kernelActions;
            return { kernelActions: rest };
          });
        }
        if (get().kernels.sessionId === sessionId) await get().loadKernels(sessionId);
      },
    };
  };
