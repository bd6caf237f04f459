import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { AuditCall } from '../../../src-main/core/capabilities/audit';
import { openLedger, type Ledger, type LedgerOptions } from '../../../src-main/core/ledger/ledger';

const dirs: string[] = [];
const open: Ledger[] = [];

afterEach(() => {
  for (const l of open.splice(0)) l.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

export function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'openai4s-ledger-'));
  dirs.push(d);
  return d;
}

/** A ledger in a fresh temp dir, closed after the test. */
export function tempLedger(options: LedgerOptions = {}, file = path.join(tempDir(), 'ledger.sqlite3')): Ledger {
  const l = openLedger(file, options);
  open.push(l);
  return l;
}

export function track(l: Ledger): Ledger {
  open.push(l);
  return l;
}

/** A cell's host call as the dispatcher audits it (method read_note, one key). */
export const cellCall = (sessionId: string, runId: string, key: string, sideEffect: AuditCall['sideEffect'] = 'read'): AuditCall => ({
  origin: 'cell',
  sessionId,
  runId,
  toolCallId: null,
  cellId: 'cell-1',
  generation: 'gen-1',
  method: 'read_note',
  target: key,
  sideEffect,
  rawArguments: JSON.stringify({ key }),
  arguments: { key },
  parseError: null,
});
