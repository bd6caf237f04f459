import type { ErrorBody } from '../../../src-preload/contract';
import { toErrorBody } from '../api/bridge';
import { createLoader, idle } from './loadable';
import type { EnvironmentsSlice, Slice, StoreDeps } from './types';

/** Scientific environments (issue 18): what env.list shows for a session (or the defaults), and switching one. */
export const createEnvironmentsSlice =
  (deps: StoreDeps): Slice<EnvironmentsSlice> =>
  (set, get) => {
    const list = createLoader<EnvironmentsSlice['environments']>((change) =>
      set((s) => ({ environments: change(s.environments) })),
    );
    return {
      environments: { ...idle(null), sessionId: null },

      loadEnvironments: (sessionId, refresh = false) =>
        list(
          () =>
            deps.bridge.invoke('env.list', {
              ...(sessionId ? { sessionId } : {}),
              ...(refresh ? { refresh: true } : {}),
            }),
          // Another session's choice (or the defaults' list) never shows under this one.
          (field) => (field.sessionId === sessionId ? field : { ...field, sessionId, data: null }),
        ),

      async chooseEnvironment(sessionId, environmentId) {
        let problem: ErrorBody | null = null;
        try {
          await deps.bridge.invoke('env.use', { sessionId, environmentId });
        } catch (error) {
          problem = toErrorBody(error);
        }
        // env.use ends the running kernel of that language, so its status changed too.
        await Promise.all([
          get().kernels.sessionId === sessionId ? get().loadKernels(sessionId) : Promise.resolve(),
          get().loadEnvironments(sessionId),
        ]);
        return problem;
      },
    };
  };
