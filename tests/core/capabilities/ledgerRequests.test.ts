import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LedgerRequestStore } from '../../../src-main/core/capabilities/permissions/ledgerStores';
import { openLedger, type Ledger } from '../../../src-main/core/ledger/ledger';
import { isForeignKeyViolation } from '../../../src-main/core/ledger/util';

let ledger: Ledger;
let dir: string;
afterEach(() => {
  ledger.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function openTemp(): Ledger {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-requests-'));
  ledger = openLedger(path.join(dir, 'ledger.sqlite3'));
  return ledger;
}

describe('approval requests over the ledger', () => {
  it('a request naming a run or generation the ledger does not know is kept against its session (told apart by the SQLite code, not the message)', () => {
    const l = openTemp();
    const session = l.createSession('requests');
    const requests = new LedgerRequestStore(() => l);
    const id = requests.create({ sessionId: session.id, runId: 'no-such-run', generationId: 'no-such-generation', method: 'web_fetch', target: 'https://example.org', reason: 'read it' });
    expect(l.permissions.require(id)).toMatchObject({ sessionId: session.id, runId: null, generationId: null, status: 'pending' });
    // The code the store relies on is the one better-sqlite3 gives for that refusal.
    const refusal = (() => {
      try {
        l.permissions.request({ sessionId: session.id, runId: 'no-such-run', method: 'm', target: 't', reason: 'r' });
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(isForeignKeyViolation(refusal)).toBe(true);
    expect(isForeignKeyViolation(new Error('FOREIGN KEY constraint failed'))).toBe(false);
  });
});
