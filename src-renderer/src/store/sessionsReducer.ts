import type { ErrorBody, RunState, SessionSummary } from '../../../src-preload/contract';

/** What the sidebar badge shows for a session. */
export interface SessionActivity {
  running: boolean;
  queued: number;
}

/** The sessions sidebar as a pure state machine: the list, the search, the badges. */
export interface SessionsState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  items: SessionSummary[];
  error: ErrorBody | null;
  activeId: string | null;
  query: string;
  activity: Record<string, SessionActivity>;
}

export type SessionsAction =
  | { type: 'sessions/requested' }
  | { type: 'sessions/loaded'; items: SessionSummary[] }
  | { type: 'sessions/failed'; error: ErrorBody }
  | { type: 'sessions/upserted'; session: SessionSummary }
  | { type: 'sessions/removed'; sessionId: string }
  | { type: 'sessions/selected'; sessionId: string | null }
  | { type: 'sessions/query'; query: string }
  | { type: 'sessions/activity'; sessionId: string; state: RunState };

export const initialSessionsState: SessionsState = {
  status: 'idle',
  items: [],
  error: null,
  activeId: null,
  query: '',
  activity: {},
};

const newestFirst = (a: SessionSummary, b: SessionSummary) =>
  a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0;

export function sessionsReducer(state: SessionsState, action: SessionsAction): SessionsState {
  switch (action.type) {
    case 'sessions/requested':
      return { ...state, status: state.status === 'ready' ? 'ready' : 'loading', error: null };
    case 'sessions/loaded':
      return {
        ...state,
        status: 'ready',
        items: action.items.slice().sort(newestFirst),
        error: null,
      };
    case 'sessions/failed':
      return { ...state, status: 'error', error: action.error };
    case 'sessions/upserted': {
      const others = state.items.filter((s) => s.id !== action.session.id);
      return { ...state, items: [...others, action.session].sort(newestFirst) };
    }
    case 'sessions/removed': {
      const activity = { ...state.activity };
      delete activity[action.sessionId];
      return {
        ...state,
        items: state.items.filter((s) => s.id !== action.sessionId),
        activeId: state.activeId === action.sessionId ? null : state.activeId,
        activity,
      };
    }
    case 'sessions/selected':
      return state.activeId === action.sessionId ? state : { ...state, activeId: action.sessionId };
    case 'sessions/query':
      return { ...state, query: action.query };
    case 'sessions/activity': {
      const next: SessionActivity = {
        running: action.state.active !== null,
        queued: action.state.queued.length,
      };
      const prev = state.activity[action.sessionId];
      if (prev && prev.running === next.running && prev.queued === next.queued) return state;
      return { ...state, activity: { ...state.activity, [action.sessionId]: next } };
    }
  }
}

/** The sessions matching the search (title, case- and width-insensitive), newest first. */
export function visibleSessions(state: SessionsState): SessionSummary[] {
  const q = state.query.trim().normalize('NFKC').toLowerCase();
  if (!q) return state.items;
  return state.items.filter((s) => s.title.normalize('NFKC').toLowerCase().includes(q));
}
