import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../src-main/core/core';
import { LEDGER_FILE, openLedger } from '../../../src-main/core/ledger/ledger';

let dir: string;
let core: Core;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-close-'));
  core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_PROVIDER: 'openai', OPENAI4S_OPENAI_API_KEY: '' } });
});
afterEach(async () => {
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('core.close()', () => {
  it('a message that arrives during or after close is refused, never run behind a closed app', async () => {
    const session = core.ledger.createSession();
    expect(core.runner.state(session.id)).toEqual({ active: null, queued: [] });
    const closing = core.close();
    // During close: the old runner refuses.
    expect(() => core.runner.submit({ sessionId: session.id, mutationId: 'during', message: 'hi' })).toThrow(expect.objectContaining({ code: 'unavailable' }));
    await closing;
    // After close: no fresh runner and no reopened ledger (the old code built both anew).
    expect(() => core.runner.submit({ sessionId: session.id, mutationId: 'after', message: 'hi' })).toThrow(expect.objectContaining({ code: 'unavailable', message: expect.stringMatching(/shutting down/) }));
    expect(() => core.ledger.sessions.list()).toThrow(expect.objectContaining({ code: 'unavailable' }));
    expect(() => core.provenance).toThrow(expect.objectContaining({ code: 'unavailable' }));
    await core.close(); // closing twice is harmless

    // Nothing was recorded for either late message, and the ledger file is free again.
    const ledger = openLedger(path.join(dir, LEDGER_FILE));
    try {
      expect(ledger.runs.listBySession(session.id)).toEqual([]);
      expect(ledger.repair).toMatchObject({ interruptedRuns: [] });
    } finally {
      ledger.close();
    }
  });
});
