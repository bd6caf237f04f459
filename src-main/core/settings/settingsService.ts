import { AppError } from '../../../src-preload/contract/errors';
import type { SandboxMode } from '../../../src-preload/contract/doctor';
import { UI_LANGUAGES, type AppSettings, type SettingsView, type UiLanguage } from '../../../src-preload/contract/settings';
import type { CoreConfig } from '../config/coreConfig';
import { findProvider, PROVIDERS } from '../config/providerCatalog';
import type { SettingsRepo } from '../ledger/settingsRepo';
import type { SecretStore } from './secretStore';
import { isServiceKeyId, SERVICE_KEYS } from './serviceKeys';

/** The keys of AppSettings in the ledger's settings table. */
const KEYS = {
  defaultProvider: 'app.defaultProvider',
  defaultModel: 'app.defaultModel',
  sandboxMode: 'app.sandboxMode',
  cellTimeoutS: 'app.cellTimeoutS',
  skillFolders: 'app.skillFolders',
  disabledSkills: 'app.disabledSkills',
  language: 'app.language',
} as const;

export type SettingsPatch = { [K in keyof AppSettings]?: AppSettings[K] | undefined };

/** A stored list setting, if it is one (a hand-edited row of another shape is ignored, not crashed on). */
function stringList<K extends 'skillFolders' | 'disabledSkills'>(key: K, value: unknown): Partial<Record<K, string[]>> {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? ({ [key]: value } as Partial<Record<K, string[]>>) : {};
}

/** Settings as the renderer sees them, over the ledger's settings table and the secret store. */
export class SettingsService {
  constructor(
    private readonly repo: () => SettingsRepo,
    private readonly secrets: SecretStore,
    private readonly config: CoreConfig,
  ) {}

  read(): AppSettings {
    const repo = this.repo();
    const cellTimeoutS = repo.get<number>(KEYS.cellTimeoutS);
    const language = repo.get<unknown>(KEYS.language);
    return {
      defaultProvider: repo.get<string>(KEYS.defaultProvider) ?? null,
      defaultModel: repo.get<string>(KEYS.defaultModel) ?? null,
      sandboxMode: repo.get<AppSettings['sandboxMode']>(KEYS.sandboxMode) ?? null,
      ...(typeof cellTimeoutS === 'number' ? { cellTimeoutS } : {}),
      ...stringList('skillFolders', repo.get<unknown>(KEYS.skillFolders)),
      ...stringList('disabledSkills', repo.get<unknown>(KEYS.disabledSkills)),
      ...((UI_LANGUAGES as readonly unknown[]).includes(language) ? { language: language as UiLanguage } : {}),
    };
  }

  /** The settings, or the defaults while the ledger cannot be read (closing, or locked by a broken migration). */
  readOrDefaults(): Partial<AppSettings> {
    try {
      return this.read();
    } catch {
      // Callers on hot paths (the skill catalogue of each run) keep working with defaults.
      return {};
    }
  }

  view(): SettingsView {
    return {
      settings: this.read(),
      keys: this.secrets.list(),
      keyStorage: this.secrets.status(),
      dataDir: this.config.dataDir,
      dataDirSource: this.config.dataDirSource,
      activeSandboxMode: this.sandboxMode(),
    };
  }

  /**
   * The sandbox mode in force: OPENAI4S_SANDBOX when set, else the one chosen in Settings,
   * else the default. The supervisor reads it at each kernel start, so a change applies to
   * the next kernel without a restart.
   */
  sandboxMode(): SandboxMode {
    if (this.config.env.get('OPENAI4S_SANDBOX')) return this.config.sandboxMode;
    try {
      const stored = this.repo().get<string>(KEYS.sandboxMode);
      if (stored === 'auto' || stored === 'enforce' || stored === 'off') return stored;
    } catch {
      // An unreadable ledger (closed, or locked by a broken migration) leaves the configured mode in force.
    }
    return this.config.sandboxMode;
  }

  update(patch: SettingsPatch): SettingsView {
    if (patch.defaultProvider) this.requireProvider(patch.defaultProvider);
    const repo = this.repo();
    for (const name of Object.keys(KEYS) as (keyof AppSettings)[]) {
      if (!(name in patch) || patch[name] === undefined) continue;
      const value = patch[name];
      if (value === null) repo.remove(KEYS[name]);
      else repo.set(KEYS[name], value);
    }
    return this.view();
  }

  private readonly languageListeners = new Set<() => void>();

  /** The window's language, for main's own dialogs and menu. */
  setLanguage(language: UiLanguage): void {
    const before = this.readOrDefaults().language;
    this.repo().set(KEYS.language, language);
    if (before !== language) for (const listener of this.languageListeners) listener();
  }

  /** Called when the window's language changes (the Electron menu is rebuilt in it). */
  onLanguageChange(listener: () => void): () => void {
    this.languageListeners.add(listener);
    return () => this.languageListeners.delete(listener);
  }

  setKey(providerId: string, key: string): SettingsView {
    this.requireProvider(providerId);
    const status = this.secrets.status();
    if (!status.available)
      throw new AppError('unavailable', status.reason ?? 'Keys cannot be stored here.');
    this.secrets.set(providerId, key.trim());
    return this.view();
  }

  clearKey(providerId: string): SettingsView {
    this.requireProvider(providerId);
    this.secrets.remove(providerId);
    return this.view();
  }

  private requireProvider(id: string): void {
    // A service key (the Science Navigator's) is stored like a provider key.
    if (!findProvider(id) && !isServiceKeyId(id)) {
      throw new AppError(
        'invalid_input',
        `Unknown provider "${id}". Use one of: ${[...PROVIDERS.map((p) => p.id), ...SERVICE_KEYS.map((s) => s.id)].join(', ')}.`,
      );
    }
  }
}
