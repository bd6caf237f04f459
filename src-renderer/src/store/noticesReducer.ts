import type { AppNoticeEvent, ErrorBody } from '../../../src-preload/contract';
import { toErrorBody } from '../api/bridge';

/**
 * A notice: pushed by main (`app.notice`, its code said in the window's language by
 * errors/noticeText.ts), or a failed call of this window, which keeps the error body so the
 * notice says its case in the window's language (errors/envelopeText.ts).
 */
export interface NoticeInput extends Pick<AppNoticeEvent, 'level' | 'message'>, Partial<Pick<AppNoticeEvent, 'code' | 'params'>> {
  error?: ErrorBody;
}

/** Notices, newest last, bounded so a flood cannot grow forever. */
export interface Notice extends NoticeInput {
  id: number;
}

/** The notice of a call that failed: its message, and its body for the window's words. */
export function errorNotice(error: unknown): NoticeInput {
  const body = toErrorBody(error);
  return { level: 'error', message: body.message, error: body };
}

export interface NoticesState {
  items: Notice[];
  nextId: number;
}

export type NoticesAction =
  { type: 'notice/received'; notice: NoticeInput } | { type: 'notice/dismissed'; id: number };

export const MAX_NOTICES = 5;
export const initialNoticesState: NoticesState = { items: [], nextId: 1 };

export function noticesReducer(state: NoticesState, action: NoticesAction): NoticesState {
  switch (action.type) {
    case 'notice/received': {
      const notice: Notice = {
        id: state.nextId,
        level: action.notice.level,
        message: action.notice.message,
        ...(action.notice.code ? { code: action.notice.code } : {}),
        ...(action.notice.params ? { params: action.notice.params } : {}),
        ...(action.notice.error ? { error: action.notice.error } : {}),
      };
      return { items: [...state.items, notice].slice(-MAX_NOTICES), nextId: state.nextId + 1 };
    }
    case 'notice/dismissed':
      if (!state.items.some((n) => n.id === action.id)) return state;
      return { ...state, items: state.items.filter((n) => n.id !== action.id) };
  }
}
