import { toErrorBody } from '../api/bridge';
import { errorNotice } from './noticesReducer';
import { translate } from '../i18n/language';
import { initialSessionsState } from './sessionsReducer';
import { sessionsDispatch } from './sessionsDispatch';
import type { SessionsSlice, Slice, StoreDeps } from './types';

export const createSessionsSlice =
  (deps: StoreDeps): Slice<SessionsSlice> =>
  (set, get) => {
    const dispatch = sessionsDispatch(set);
    const report = (error: unknown) =>
      get().receiveNotice(errorNotice(error));
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
          // Untitled, it is named in the window's language until its first message names it.
          const session = await deps.bridge.invoke('session.create', { title: title || translate(get().language, 'sidebar.newSession') });
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
