import type { StateCreator } from 'zustand';
import type { AppNoticeEvent } from '../../../src-preload/contract';
import { toErrorBody, type Bridge } from '../api/bridge';
import { LANGUAGE_STORAGE_KEY, type Language } from '../i18n/language';
import { doctorReducer, initialDoctorState, type DoctorState } from './doctorReducer';
import type { ConversationSlice } from './conversationSlice';
import type { ScheduleFrame } from './frameBatcher';
import type { PanelsSlice } from './panelsSlice';
import { initialNoticesState, noticesReducer, type NoticesState } from './noticesReducer';
import type { SessionsSlice } from './sessionsSlice';
import type { SettingsSlice } from './settingsSlice';
import type { WorkspaceSlice } from './workspaceSlice';

/** What the store needs from the outside world; tests pass fakes. */
export interface StoreDeps {
  bridge: Bridge;
  /** Where the language choice is saved; null when storage is unavailable. */
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  /** Defers stream folding to the next animation frame (tests pass a manual scheduler). */
  scheduleFrame?: ScheduleFrame;
}

export type View = 'home' | 'system' | 'session' | 'settings';
export type RightTab = 'notebook' | 'evidence' | 'artifacts';

export interface UiSlice {
  language: Language;
  view: View;
  rightTab: RightTab;
  rightOpen: boolean;
  /** The composer's provider/model choice; null means the app's default. */
  provider: string | null;
  model: string | null;
  setLanguage(language: Language): void;
  setView(view: View): void;
  setRightTab(tab: RightTab): void;
  toggleRight(open?: boolean): void;
  setModelChoice(provider: string | null, model: string | null): void;
  /** The evidence record shown in the Evidence tab (a clicked citation). */
  focusedEvidence: string | null;
  focusEvidence(id: string | null): void;
  /** The composer's text (kept across views, so a prefilled example survives navigation). */
  draft: string;
  setDraft(text: string): void;
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

export type AppState = UiSlice &
  SystemSlice &
  NoticesSlice &
  SessionsSlice &
  ConversationSlice &
  PanelsSlice &
  SettingsSlice &
  WorkspaceSlice;
type Slice<T> = StateCreator<AppState, [], [], T>;

export const createUiSlice =
  (deps: StoreDeps, language: Language): Slice<UiSlice> =>
  (set) => ({
    language,
    view: 'home',
    rightTab: 'notebook',
    rightOpen: true,
    provider: null,
    model: null,
    focusedEvidence: null,
    draft: '',
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
    setRightTab(rightTab) {
      set({ rightTab, rightOpen: true });
    },
    toggleRight(open) {
      set((s) => ({ rightOpen: open ?? !s.rightOpen }));
    },
    setDraft(draft) {
      set({ draft });
    },
    focusEvidence(id) {
      set(
        id
          ? { focusedEvidence: id, rightTab: 'evidence', rightOpen: true }
          : { focusedEvidence: null },
      );
    },
    setModelChoice(provider, model) {
      set({ provider, model: model?.trim() ? model.trim() : null });
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
        set((s) => ({
          doctor: doctorReducer(s.doctor, { type: 'doctor/loaded', requestId, report }),
        }));
      } catch (error) {
        set((s) => ({
          doctor: doctorReducer(s.doctor, {
            type: 'doctor/failed',
            requestId,
            error: toErrorBody(error),
          }),
        }));
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
