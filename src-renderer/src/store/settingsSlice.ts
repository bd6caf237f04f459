import type { ErrorBody, SettingsView } from '../../../src-preload/contract';
import { toErrorBody } from '../api/bridge';
import { errorNotice } from './noticesReducer';
import { createLoader, idle } from './loadable';
import type { Language } from '../i18n/language';
import type { AppState, SettingsSlice, Slice, StoreDeps, ThemeChoice } from './types';

export const THEME_STORAGE_KEY = 'openai4s.theme';

export function savedTheme(storage: StoreDeps['storage']): ThemeChoice {
  try {
    const v = storage?.getItem(THEME_STORAGE_KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

/** The provider and model a new message uses: the composer's pick, else the Settings default. */
export function modelChoice(s: AppState): { provider?: string; model?: string } {
  const provider = s.provider ?? s.settings.data?.settings.defaultProvider ?? null;
  const model = s.model ?? (s.provider ? null : (s.settings.data?.settings.defaultModel ?? null));
  return { ...(provider ? { provider } : {}), ...(model ? { model } : {}) };
}

/** Says the window's language to main, for its own dialogs; a failure only leaves them in the old one. */
export function tellLanguage(deps: StoreDeps, language: Language): void {
  deps.bridge.invoke('settings.language', { language }).catch(() => {});
}

export const createSettingsSlice =
  (deps: StoreDeps): Slice<SettingsSlice> =>
  (set, get) => {
    const settings = createLoader<SettingsSlice['settings']>((change) =>
      set((s) => ({ settings: change(s.settings) })),
    );
    const rules = createLoader<SettingsSlice['rules']>((change) =>
      set((s) => ({ rules: change(s.rules) })),
    );
    const apply = async (
      call: () => Promise<SettingsView>,
      refreshDoctor: boolean,
    ): Promise<ErrorBody | null> => {
      try {
        const view = await call();
        set({ settings: { status: 'ready', data: view, error: null } });
        if (refreshDoctor) void get().loadDoctor();
        // Readiness follows keys and the default provider (the composer's picker, the setup).
        void get().loadProviders();
        return null;
      } catch (error) {
        return toErrorBody(error);
      }
    };
    return {
      settings: idle<SettingsView | null>(null),
      rules: idle([]),
      theme: savedTheme(deps.storage),
      async loadSettings() {
        await settings(() => deps.bridge.invoke('settings.get', {}));
        // Main's own dialogs (approvals, opening a package) speak the window's language: say it when main does not know it.
        const view = get().settings.data;
        if (view && view.settings.language !== get().language) tellLanguage(deps, get().language);
      },
      updateSettings: (patch) => apply(() => deps.bridge.invoke('settings.update', patch), false),
      setProviderKey: (providerId, key) =>
        apply(() => deps.bridge.invoke('settings.key.set', { providerId, key }), true),
      clearProviderKey: (providerId) =>
        apply(() => deps.bridge.invoke('settings.key.clear', { providerId }), true),
      loadRules: () => rules(() => deps.bridge.invoke('approval.rule.list', {})),
      async revokeRule(id) {
        try {
          await deps.bridge.invoke('approval.rule.revoke', { id });
        } catch (error) {
          get().receiveNotice(errorNotice(error));
        }
        await get().loadRules();
      },
      setTheme(theme) {
        try {
          deps.storage?.setItem(THEME_STORAGE_KEY, theme);
        } catch {
          // The choice still applies to this window.
        }
        set({ theme });
      },
    };
  };
