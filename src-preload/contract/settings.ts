import { z } from 'zod';
import { route } from './define';
import type { SandboxMode } from './doctor';

/**
 * Settings: what the user chooses in the app, stored in the ledger's settings table
 * (never secrets), and provider keys, stored encrypted with Electron safeStorage and
 * never sent back in full (only a hint of the last characters).
 */
export interface AppSettings {
  /** The provider new messages use unless the composer picks another; null = OPENAI4S_PROVIDER or the built-in default. */
  defaultProvider: string | null;
  /** null = the provider's configured or built-in model. */
  defaultModel: string | null;
  /** null = OPENAI4S_SANDBOX_MODE or `auto`. Applies to kernels started after the app restarts. */
  sandboxMode: SandboxMode | null;
  /** Wall-clock limit of an agent cell in seconds; absent or null = OPENAI4S_CELL_TIMEOUT_S or 1800. */
  cellTimeoutS?: number | null;
  /** More folders of skills (absolute paths), after the bundled and the user's own; absent or null = none. */
  skillFolders?: string[] | null;
  /** Skills switched off by name: left out of the prompt's catalogue, search and loading. */
  disabledSkills?: string[] | null;
  /**
   * The window's language, as the window last said it: main's own dialogs (approvals, opening
   * a package, the first start) speak it. Absent or null = the system's language.
   */
  language?: UiLanguage | null;
}

import { UI_LANGUAGES, type UiLanguage } from './uiLanguage';

export { UI_LANGUAGES, type UiLanguage };

/** A stored key as the renderer may see it. */
export interface StoredKeyInfo {
  providerId: string;
  /** "••••" plus the last 4 characters: enough to recognise a key, useless to steal one. */
  hint: string;
  updatedAt: string;
}

export interface KeyStorageStatus {
  available: boolean;
  /** Why keys cannot be stored here, and what to do instead. */
  reason: string | null;
  /**
   * Which case `reason` is, so the window can say it in its own language: the system has no
   * encryption for secrets, no keyring runs (the backend that would store keys unprotected is
   * `backend`), or this host is not the desktop app (the CLI, a browser harness).
   */
  code?: 'no-encryption' | 'no-keyring' | 'not-desktop';
  backend?: string;
}

export interface SettingsView {
  settings: AppSettings;
  keys: StoredKeyInfo[];
  keyStorage: KeyStorageStatus;
  dataDir: string;
  dataDirSource: 'env' | 'default';
  /** The sandbox mode the running kernels use (from the environment at start). */
  activeSandboxMode: SandboxMode;
}

const providerId = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,31}$/, 'a provider id is lowercase letters, digits, "_" or "-"');

export const settingsRoutes = {
  'settings.get': route<SettingsView>()(z.object({}).strict().default({})),
  /** The window says its language (at start and when switched): main's own dialogs speak it. */
  'settings.language': route<null>()(z.object({ language: z.enum(UI_LANGUAGES) }).strict()),
  'settings.update': route<SettingsView>()(
    z
      .object({
        defaultProvider: providerId.nullable().optional(),
        defaultModel: z.string().trim().min(1).max(200).nullable().optional(),
        sandboxMode: z.enum(['auto', 'enforce', 'off']).nullable().optional(),
        cellTimeoutS: z.number().int().min(1).max(7 * 24 * 3600).nullable().optional(),
        skillFolders: z
          .array(z.string().max(1000).regex(/^(\/|[A-Za-z]:[\\/])/, 'a skill folder is an absolute path, e.g. /home/me/skills'))
          .max(20)
          .nullable()
          .optional(),
        disabledSkills: z
          .array(z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'a skill name is lower-case letters, digits and hyphens').max(64))
          .max(500)
          .nullable()
          .optional(),
      })
      .strict(),
  ),
  'settings.key.set': route<SettingsView>()(
    z
      .object({
        providerId,
        key: z
          .string()
          .trim()
          .min(8, 'the key is shorter than 8 characters; paste the whole key')
          .max(1000)
          .regex(/^\S+$/, 'the key contains spaces or line breaks; paste only the key'),
      })
      .strict(),
  ),
  'settings.key.clear': route<SettingsView>()(z.object({ providerId }).strict()),
};
