import type { AppNoticeEvent } from '../../../src-preload/contract';

/** Notices pushed by main (`app.notice`), newest last, bounded so a flood cannot grow forever. */
export interface Notice extends AppNoticeEvent {
  id: number;
}

export interface NoticesState {
  items: Notice[];
  nextId: number;
}

export type NoticesAction =
  { type: 'notice/received'; notice: AppNoticeEvent } | { type: 'notice/dismissed'; id: number };

export const MAX_NOTICES = 5;
export const initialNoticesState: NoticesState = { items: [], nextId: 1 };

export function noticesReducer(state: NoticesState, action: NoticesAction): NoticesState {
  switch (action.type) {
    case 'notice/received': {
      const notice: Notice = {
        id: state.nextId,
        level: action.notice.level,
        message: action.notice.message,
      };
      return { items: [...state.items, notice].slice(-MAX_NOTICES), nextId: state.nextId + 1 };
    }
    case 'notice/dismissed':
      if (!state.items.some((n) => n.id === action.id)) return state;
      return { ...state, items: state.items.filter((n) => n.id !== action.id) };
  }
}
