import type { StateCreator } from 'zustand';
import type { AppNoticeEvent } from '../../../src-preload/contract';
import { toErrorBody, type Bridge } from '../api/bridge';
import { LANGUAGE_STORAGE_KEY, type Language } from '../i18n/language';
import { doctorReducer, initialDoctorState, type DoctorState } from './doctorReducer';
import { initialNoticesState, noticesReducer, type NoticesState } from './noticesReducer';

/** What the store needs from the outside world; tests pass fakes. */
export interface StoreDeps {
  bridge: Bridge;
  /** Where the language choice is saved; null when storage is unavailable. */
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
}

export type View = 'home' | 'system';

export interface UiSlice {
  language: Language;
  view: View;
  setLanguage(language: Language): void;
  setView(view: View): void;
}

export interface SystemSlice {
  doctor: DoctorState;
  /** Fetches `doctor.get`; `refresh` asks main to probe again instead of using its cache. */
  loadDoctor(refresh?: boolean): Promise<void>;
}

export interface NoticesSlice {
  notices: NoticesState;
  receiveNotice(notice: AppNoticeEvent): void;
  dismissNotice(id: number): void;
}

export type AppState = UiSlice & SystemSlice & NoticesSlice;
type Slice<T> = StateCreator<AppState, [], [], T>;

export const createUiSlice =
  (deps: StoreDeps, language: Language): Slice<UiSlice> =>
  (set) => ({
    language,
    view: 'home',
    setLanguage(next) {
      try {
        deps.storage?.setItem(LANGUAGE_STORAGE_KEY, next);
      } catch {
        // Storage may be full or disabled; the choice still applies to this window.
      }
      set({ language: next });
    },
    setView(view) {
      set({ view });
    },
  });

export const createSystemSlice =
  (deps: StoreDeps): Slice<SystemSlice> =>
  (set, get) => ({
    doctor: initialDoctorState,
    async loadDoctor(refresh = false) {
      const requestId = get().doctor.requestId + 1;
      set((s) => ({ doctor: doctorReducer(s.doctor, { type: 'doctor/requested', requestId }) }));
      try {
        const report = await deps.bridge.invoke('doctor.get', refresh ? { refresh: true } : {});
        set((s) => ({ doctor: doctorReducer(s.doctor, { type: 'doctor/loaded', requestId, report }) }));
      } catch (error) {
        set((s) => ({ doctor: doctorReducer(s.doctor, { type: 'doctor/failed', requestId, error: toErrorBody(error) }) }));
      }
    },
  });

export const createNoticesSlice = (): Slice<NoticesSlice> => (set) => ({
  notices: initialNoticesState,
  receiveNotice(notice) {
    set((s) => ({ notices: noticesReducer(s.notices, { type: 'notice/received', notice }) }));
  },
  dismissNotice(id) {
    set((s) => ({ notices: noticesReducer(s.notices, { type: 'notice/dismissed', id }) }));
  },
});
