import { sessionsReducer, type SessionsAction } from './sessionsReducer';
import type { SetState } from './types';

/**
 * Sends an action to the sessions list. Shared by the sessions slice and the slices
 * whose actions change the list too (opening a conversation selects its session, the
 * demo adds one), so none of them imports another slice.
 */
export function sessionsDispatch(set: SetState) {
  return (action: SessionsAction) =>
    set((s) => ({ sessions: sessionsReducer(s.sessions, action) }));
}
