import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../../src-main/core/core';
import { LEDGER_SYNC_VARIABLE, resolveLedgerSync } from '../../../src-main/core/ledger/durability';
import { tempDir, tempLedger } from './support';

// SQLite's numbers for PRAGMA synchronous.
const NORMAL = 1;
const FULL = 2;

describe('ledger durability level', () => {
  it('is synchronous=NORMAL by default and FULL when asked, in WAL mode either way', () => {
    const byDefault = tempLedger();
    expect(byDefault.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(byDefault.db.pragma('synchronous', { simple: true })).toBe(NORMAL);
    const full = tempLedger({ sync: 'full' });
    expect(full.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(full.db.pragma('synchronous', { simple: true })).toBe(FULL);
  });

  it('reads OPENAI4S_LEDGER_SYNC: unset is normal, case and spaces do not matter, anything else is refused with the choices', () => {
    expect(resolveLedgerSync(undefined)).toBe('normal');
    expect(resolveLedgerSync('')).toBe('normal');
    expect(resolveLedgerSync(' FULL ')).toBe('full');
    expect(resolveLedgerSync('normal')).toBe('normal');
    expect(() => resolveLedgerSync('off')).toThrow(`${LEDGER_SYNC_VARIABLE}=off is not a ledger durability level. Use one of: normal, full`);
  });

  it.each([
    ['the environment', () => ({ [LEDGER_SYNC_VARIABLE]: 'full' }), FULL],
    ['the data root .env', (dir: string) => (fs.writeFileSync(path.join(dir, '.env'), `${LEDGER_SYNC_VARIABLE}=full\n`), {}), FULL],
    ['nowhere', () => ({}), NORMAL],
  ])('the app opens its ledger at the level set in %s', async (_where, set, expected) => {
    const dir = tempDir();
    const extra = set(dir);
    const env = { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0', ...extra };
    if (!(LEDGER_SYNC_VARIABLE in extra)) delete (env as NodeJS.ProcessEnv)[LEDGER_SYNC_VARIABLE];
    const core = createCore({ env });
    try {
      expect(core.ledger.db.pragma('synchronous', { simple: true })).toBe(expected);
    } finally {
      await core.close();
    }
  });
});
