import type { KeyStorageStatus, StoredKeyInfo } from '../../../src-preload/contract/settings';

/**
 * Provider keys entered in Settings. The Electron glue implements it with safeStorage
 * (src-main/electron/secrets.ts); the CLI and plain-Node hosts have none, and say so.
 * Keys are held only to be handed to the provider client: never logged, never returned
 * to the renderer (only `hint`), never put in a kernel's environment.
 */
export interface SecretStore {
  status(): KeyStorageStatus;
  get(providerId: string): string | null;
  set(providerId: string, key: string): void;
  remove(providerId: string): void;
  list(): StoredKeyInfo[];
}

/** "••••" and the last 4 characters. */
export function keyHint(key: string): string {
  return `••••${key.slice(-4)}`;
}

/** The store of a host that cannot keep secrets: lists nothing and refuses to store. */
export function unavailableSecretStore(reason: string, code: KeyStorageStatus['code'] = 'not-desktop'): SecretStore {
  return {
    status: () => ({ available: false, reason, code }),
    get: () => null,
    set: () => {
      throw new Error(reason);
    },
    remove: () => undefined,
    list: () => [],
  };
}

export const NO_SECRET_STORE_REASON =
  'Keys can be stored only in the desktop app (Electron safeStorage). Here, set OPENAI4S_<PROVIDER>_API_KEY in the environment or in the .env file of the data directory.';

/** An in-memory store (tests and the e2e harness): the same contract, nothing on disk. */
export function memorySecretStore(now: () => string = () => new Date().toISOString()): SecretStore {
  const keys = new Map<string, { key: string; updatedAt: string }>();
  return {
    status: () => ({ available: true, reason: null }),
    get: (id) => keys.get(id)?.key ?? null,
    set: (id, key) => void keys.set(id, { key, updatedAt: now() }),
    remove: (id) => void keys.delete(id),
    list: () =>
      [...keys]
        .map(([providerId, v]) => ({ providerId, hint: keyHint(v.key), updatedAt: v.updatedAt }))
        .sort((a, b) => a.providerId.localeCompare(b.providerId)),
  };
}
