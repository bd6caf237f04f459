import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sqliteOptions } from '../../../src-main/core/config/sqlite';
import { openLedger } from '../../../src-main/core/ledger/ledger';

afterEach(() => vi.unstubAllEnvs());

describe('the SQLite addon the core loads', () => {
  it('is the default build unless OPENAI4S_SQLITE_BINDING names another (the Electron build under npm start)', () => {
    expect(sqliteOptions({})).toEqual({});
    expect(sqliteOptions({ OPENAI4S_SQLITE_BINDING: '/x/better_sqlite3.node' })).toEqual({ nativeBinding: '/x/better_sqlite3.node' });
  });

  it('really opens the ledger through the named addon, and fails clearly on a missing one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-sqlite-'));
    try {
      vi.stubEnv('OPENAI4S_SQLITE_BINDING', path.resolve('node_modules/better-sqlite3/build/Release/better_sqlite3.node'));
      const ledger = openLedger(path.join(dir, 'a.sqlite3'));
      expect(ledger.schemaVersion).toBeGreaterThanOrEqual(1);
      ledger.close();
      vi.stubEnv('OPENAI4S_SQLITE_BINDING', path.join(dir, 'missing.node'));
      expect(() => openLedger(path.join(dir, 'b.sqlite3'))).toThrow(/missing\.node/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
