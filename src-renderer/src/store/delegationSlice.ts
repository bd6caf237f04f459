import { errorNotice } from './noticesReducer';
import type { DelegationSlice, Slice, StoreDeps } from './types';

/**
 * Child agents (issue 20): whether the next message may delegate (the composer's switch),
 * and stopping a child from its card. The children themselves are parts of the run's
 * message (`data-child`), folded with the rest of the stream.
 */
export const createDelegationSlice =
  (deps: StoreDeps): Slice<DelegationSlice> =>
  (set, get) => ({
    delegationAllowed: true,
    setDelegationAllowed(allowed) {
      set({ delegationAllowed: allowed });
    },
    async stopChild(sessionId, runId) {
      try {
        await deps.bridge.invoke('delegation.stop', { sessionId, runId });
      } catch (error) {
        get().receiveNotice(errorNotice(error));
      }
    },
  });
