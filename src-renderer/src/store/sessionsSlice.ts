import type { StateCreator } from 'zustand';
import { toErrorBody } from '../api/bridge';
import type { AppState, StoreDeps } from './slices';
import {
  initialSessionsState,
  sessionsReducer,
  type SessionsAction,
  type SessionsState,
} from './sessionsReducer';

export interface SessionsSlice {
  sessions: SessionsState;
  loadSessions(): Promise<void>;
  createSession(title?: string): Promise<string | null>;
  renameSession(sessionId: string, title: string): Promise<void>;
  deleteSession(sessionId: string): Promise<void>;
  setSessionQuery(query: string): void;
  /** Asks main which run of the session is active and which are queued (the badge). */
  refreshActivity(sessionId: string): Promise<void>;
  /** Re-reads one session's summary (its title changes with its first message). */
  refreshSession(sessionId: string): Promise<void>;
}

type Slice<T> = StateCreator<AppState, [], [], T>;

export const createSessionsSlice =
  (deps: StoreDeps): Slice<SessionsSlice> =>
  (set, get) => {
    const dispatch = (action: SessionsAction) =>
      set((s) => ({ sessions: sessionsReducer(s.sessions, action) }));
    const report = (error: unknown) =>
      get().receiveNotice({ level: 'error', message: toErrorBody(error).message });
    return {
      sessions: initialSessionsState,
      async loadSessions() {
        dispatch({ type: 'sessions/requested' });
        try {
          const items = await deps.bridge.invoke('session.list', {});
          dispatch({ type: 'sessions/loaded', items });
          await Promise.all(items.map((s) => get().refreshActivity(s.id)));
        } catch (error) {
          dispatch({ type: 'sessions/failed', error: toErrorBody(error) });
        }
      },
      async createSession(title) {
        try {
          const session = await deps.bridge.invoke('session.create', title ? { title } : {});
          dispatch({ type: 'sessions/upserted', session });
          await get().openSession(session.id);
          return session.id;
        } catch (error) {
          report(error);
          return null;
        }
      },
      async renameSession(sessionId, title) {
        try {
          const session = await deps.bridge.invoke('session.rename', { sessionId, title });
          dispatch({ type: 'sessions/upserted', session });
        } catch (error) {
          report(error);
        }
      },
      async deleteSession(sessionId) {
        try {
          await deps.bridge.invoke('session.delete', { sessionId });
          const wasActive = get().sessions.activeId === sessionId;
          dispatch({ type: 'sessions/removed', sessionId });
          if (wasActive) get().closeSession();
        } catch (error) {
          report(error);
        }
      },
      setSessionQuery(query) {
        dispatch({ type: 'sessions/query', query });
      },
      async refreshActivity(sessionId) {
        try {
          const state = await deps.bridge.invoke('run.state', { sessionId });
          dispatch({ type: 'sessions/activity', sessionId, state });
        } catch {
          // A badge is a hint; the conversation itself shows the authoritative state.
        }
      },
      async refreshSession(sessionId) {
        try {
          const detail = await deps.bridge.invoke('session.get', { sessionId });
          dispatch({ type: 'sessions/upserted', session: detail.session });
        } catch {
          // Deleted meanwhile: the list reload drops it.
        }
      },
    };
  };

/** The dispatcher, for the conversation slice (selecting a session is a sessions action). */
export function sessionsDispatch(set: Parameters<Slice<unknown>>[0]) {
  return (action: SessionsAction) =>
    set((s) => ({ sessions: sessionsReducer(s.sessions, action) }));
}
