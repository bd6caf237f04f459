import fs from 'node:fs';
import path from 'node:path';
import type { KeyStorageStatus, StoredKeyInfo } from '../../src-preload/contract/settings';
import { keyHint, type SecretStore } from '../core/settings/secretStore';
import { errorMessage } from '../core/shared/errorMessage';

/** The part of Electron's `safeStorage` this store uses (injected, so tests pass a fake). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: which secret backend Chromium chose. */
  getSelectedStorageBackend?(): string;
}

interface FileEntry {
  /** base64 of safeStorage's ciphertext; the clear key is never written. */
  cipher: string;
  hint: string;
  updatedAt: string;
}

export const SECRETS_FILE = 'secrets.json';

/**
 * Provider keys encrypted with safeStorage (the OS keychain / DPAPI / libsecret) in
 * `<dataDir>/secrets.json` (mode 0600). On Linux without a keyring Chromium falls back
 * to `basic_text`, a fixed obfuscation key: that is clear text in effect, so it is refused.
 */
export function createSafeStorageSecrets(
  safeStorage: SafeStorageLike,
  dataDir: string,
  now: () => Date = () => new Date(),
): SecretStore {
  const file = path.join(dataDir, SECRETS_FILE);

  const status = (): KeyStorageStatus => {
    if (!safeStorage.isEncryptionAvailable()) {
      return {
        available: false,
        code: 'no-encryption',
        reason:
          'The system offers no encryption for secrets (safeStorage is unavailable). Set OPENAI4S_<PROVIDER>_API_KEY in the environment or the .env file of the data directory instead.',
      };
    }
    const backend = safeStorage.getSelectedStorageBackend?.();
    if (backend === 'basic_text' || backend === 'unknown') {
      return {
        available: false,
        code: 'no-keyring',
        backend,
        reason: `No keyring is running (safeStorage backend "${backend}" would store keys unprotected). Start GNOME Keyring or KWallet, or set OPENAI4S_<PROVIDER>_API_KEY in the environment instead.`,
      };
    }
    return { available: true, reason: null };
  };

  const read = (): Record<string, FileEntry> => {
    try {
      const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
      return typeof parsed === 'object' && parsed !== null
        ? (parsed as Record<string, FileEntry>)
        : {};
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new Error(
        `${file} is unreadable (${errorMessage(error)}); remove it and enter the keys again in Settings.`,
      );
    }
  };

  const write = (entries: Record<string, FileEntry>): void => {
    // Write-then-rename: a crash never leaves half a file.
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `${JSON.stringify(entries, null, 2)}\n`, { mode: 0o600 });
    fs.renameSync(tmp, file);
  };

  return {
    status,
    get(providerId) {
      const entry = read()[providerId];
      if (!entry || !safeStorage.isEncryptionAvailable()) return null;
      try {
        return safeStorage.decryptString(Buffer.from(entry.cipher, 'base64'));
      } catch {
        // Encrypted under another OS user or keyring: unusable, as if absent.
        return null;
      }
    },
    set(providerId, key) {
      const s = status();
      if (!s.available) throw new Error(s.reason ?? 'Keys cannot be stored here.');
      const entries = read();
      entries[providerId] = {
        cipher: safeStorage.encryptString(key).toString('base64'),
        hint: keyHint(key),
        updatedAt: now().toISOString(),
      };
      write(entries);
    },
    remove(providerId) {
      const entries = read();
      if (!(providerId in entries)) return;
      delete entries[providerId];
      write(entries);
    },
    list(): StoredKeyInfo[] {
      return Object.entries(read())
        .map(([providerId, e]) => ({ providerId, hint: e.hint, updatedAt: e.updatedAt }))
        .sort((a, b) => a.providerId.localeCompare(b.providerId));
    },
  };
}
