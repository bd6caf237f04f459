import type { StateCreator } from 'zustand';
import type { ApprovalRule, ErrorBody, SettingsView } from '../../../src-preload/contract';
import { toErrorBody } from '../api/bridge';
import type { AppState, StoreDeps } from './slices';

export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_STORAGE_KEY = 'openai4s.theme';

export interface SettingsSlice {
  settings: {
    status: 'idle' | 'loading' | 'ready' | 'error';
    view: SettingsView | null;
    error: ErrorBody | null;
  };
  rules: {
    status: 'idle' | 'loading' | 'ready' | 'error';
    items: ApprovalRule[];
    error: ErrorBody | null;
  };
  theme: ThemeChoice;
  loadSettings(): Promise<void>;
  /** Applies a change; answers the error message, or null when it was saved. */
  updateSettings(patch: {
    defaultProvider?: string | null;
    defaultModel?: string | null;
    sandboxMode?: 'auto' | 'enforce' | 'off' | null;
    cellTimeoutS?: number | null;
  }): Promise<string | null>;
  setProviderKey(providerId: string, key: string): Promise<string | null>;
  clearProviderKey(providerId: string): Promise<string | null>;
  loadRules(): Promise<void>;
  revokeRule(id: string): Promise<void>;
  setTheme(theme: ThemeChoice): void;
}

type Slice<T> = StateCreator<AppState, [], [], T>;

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
  const provider = s.provider ?? s.settings.view?.settings.defaultProvider ?? null;
  const model = s.model ?? (s.provider ? null : (s.settings.view?.settings.defaultModel ?? null));
  return { ...(provider ? { provider } : {}), ...(model ? { model } : {}) };
}

export const createSettingsSlice =
  (deps: StoreDeps): Slice<SettingsSlice> =>
  (set, get) => {
    const apply = async (
      call: () => Promise<SettingsView>,
      refreshDoctor: boolean,
    ): Promise<string | null> => {
      try {
        const view = await call();
        set({ settings: { status: 'ready', view, error: null } });
        if (refreshDoctor) void get().loadDoctor();
        return null;
      } catch (error) {
        return toErrorBody(error).message;
      }
    };
    return {
      settings: { status: 'idle', view: null, error: null },
      rules: { status: 'idle', items: [], error: null },
      theme: savedTheme(deps.storage),
      async loadSettings() {
        set((s) => ({ settings: { ...s.settings, status: 'loading' } }));
        try {
          const view = await deps.bridge.invoke('settings.get', {});
          set({ settings: { status: 'ready', view, error: null } });
        } catch (error) {
          set((s) => ({ settings: { ...s.settings, status: 'error', error: toErrorBody(error) } }));
        }
      },
      updateSettings: (patch) => apply(() => deps.bridge.invoke('settings.update', patch), false),
      setProviderKey: (providerId, key) =>
        apply(() => deps.bridge.invoke('settings.key.set', { providerId, key }), true),
      clearProviderKey: (providerId) =>
        apply(() => deps.bridge.invoke('settings.key.clear', { providerId }), true),
      async loadRules() {
        set((s) => ({ rules: { ...s.rules, status: 'loading' } }));
        try {
          const items = await deps.bridge.invoke('approval.rule.list', {});
          set({ rules: { status: 'ready', items, error: null } });
        } catch (error) {
          set((s) => ({ rules: { ...s.rules, status: 'error', error: toErrorBody(error) } }));
        }
      },
      async revokeRule(id) {
        try {
          await deps.bridge.invoke('approval.rule.revoke', { id });
        } catch (error) {
          get().receiveNotice({ level: 'error', message: toErrorBody(error).message });
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
