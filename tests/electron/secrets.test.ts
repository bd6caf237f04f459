import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createSafeStorageSecrets,
  SECRETS_FILE,
  type SafeStorageLike,
} from '../../src-main/electron/secrets';

/** A stand-in for Electron's safeStorage: a reversible transform that is not the clear text. */
function fakeSafeStorage(options: { available?: boolean; backend?: string } = {}): SafeStorageLike {
  const seal = (s: string) => Buffer.from(`sealed:${Buffer.from(s).reverse().toString('hex')}`);
  return {
    isEncryptionAvailable: () => options.available ?? true,
    encryptString: (s) => seal(s),
    decryptString: (b) => {
      const text = b.toString();
      if (!text.startsWith('sealed:'))
        throw new Error(
          'Error while decrypting the ciphertext provided to safeStorage.decryptString.',
        );
      return Buffer.from(text.slice(7), 'hex').reverse().toString();
    },
    getSelectedStorageBackend: () => options.backend ?? 'gnome_libsecret',
  };
}

const KEY = 'sk-live-abcdefghijklmnop-9876';
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-secrets-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('safeStorage secret store', () => {
  it('stores a key encrypted, gives it back to main, and lists only a hint', () => {
    const store = createSafeStorageSecrets(
      fakeSafeStorage(),
      dir,
      () => new Date('2025-05-01T10:00:00Z'),
    );
    expect(store.status()).toEqual({ available: true, reason: null });
    store.set('openai', KEY);
    expect(store.get('openai')).toBe(KEY);
    expect(store.list()).toEqual([
      { providerId: 'openai', hint: '••••9876', updatedAt: '2025-05-01T10:00:00.000Z' },
    ]);
    const raw = fs.readFileSync(path.join(dir, SECRETS_FILE), 'utf8');
    expect(raw).not.toContain(KEY);
    expect(raw).not.toContain('abcdefghijklmnop');
    expect(fs.statSync(path.join(dir, SECRETS_FILE)).mode & 0o777).toBe(0o600);
    // A second store over the same file (the next app start) reads it back.
    expect(createSafeStorageSecrets(fakeSafeStorage(), dir).get('openai')).toBe(KEY);
    store.remove('openai');
    expect(store.get('openai')).toBeNull();
    expect(store.list()).toEqual([]);
  });

  it('refuses to store when safeStorage is unavailable or falls back to basic_text', () => {
    const none = createSafeStorageSecrets(fakeSafeStorage({ available: false }), dir);
    expect(none.status()).toMatchObject({ available: false, code: 'no-encryption' });
    expect(() => none.set('openai', KEY)).toThrow(/OPENAI4S_<PROVIDER>_API_KEY/);
    const plain = createSafeStorageSecrets(fakeSafeStorage({ backend: 'basic_text' }), dir);
    expect(plain.status()).toMatchObject({
      available: false,
      reason: expect.stringMatching(/basic_text.*Keyring/),
      // The case and the backend, for the window to say it in its own language.
      code: 'no-keyring',
      backend: 'basic_text',
    });
    expect(() => plain.set('openai', KEY)).toThrow(/keyring/i);
    expect(fs.existsSync(path.join(dir, SECRETS_FILE))).toBe(false);
  });

  it('treats a key it cannot decrypt (another keyring) as absent, and a corrupt file as an error naming it', () => {
    fs.writeFileSync(
      path.join(dir, SECRETS_FILE),
      JSON.stringify({
        openai: {
          cipher: Buffer.from('garbage').toString('base64'),
          hint: '••••xxxx',
          updatedAt: 'x',
        },
      }),
    );
    const store = createSafeStorageSecrets(fakeSafeStorage(), dir);
    expect(store.get('openai')).toBeNull();
    fs.writeFileSync(path.join(dir, SECRETS_FILE), '{not json');
    expect(() => store.list()).toThrow(/secrets\.json is unreadable/);
  });
});
