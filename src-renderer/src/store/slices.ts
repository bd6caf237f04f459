/** The three small slices: the window's UI state, the system check and the notices. */
import { toErrorBody } from '../api/bridge';
import { LANGUAGE_STORAGE_KEY, type Language } from '../i18n/language';
import { doctorReducer, initialDoctorState } from './doctorReducer';
import { initialNoticesState, noticesReducer } from './noticesReducer';
import { tellLanguage } from './settingsSlice';
import type { NoticesSlice, Slice, StoreDeps, SystemSlice, UiSlice } from './types';

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
      // Main's dialogs follow.
      tellLanguage(deps, next);
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
