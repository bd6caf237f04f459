import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../src-preload/contract/routes';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { createRouter } from '../../../src-main/core/api/router';
import { createCore, type Core } from '../../../src-main/core/core';
import { memorySecretStore } from '../../../src-main/core/settings/secretStore';
import { startNavigatorServer } from '../science/navigator/navigatorServer';

// Issue 21: the Bohrium access key can be stored in Settings (the secret store) instead of the environment.
const KEY = 'bohr-settings-key-0042';
let dir: string;
let core: Core | null = null;
let server: Awaited<ReturnType<typeof startNavigatorServer>> | null = null;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-navkey-'));
});
afterEach(async () => {
  await core?.close();
  await server?.close();
  core = null;
  server = null;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the Science Navigator key in Settings', () => {
  it('is stored under "bohrium", shown only as a hint, and used by science_navigator', async () => {
    server = await startNavigatorServer({});
    core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_BOHRIUM_ACCESS_KEY: '', OPENAI4S_BOHRIUM_BASE_URL: server.base }, secrets: memorySecretStore() });
    const router = createRouter(routes, createHandlers(core), { checkSender: () => true });
    const caller = { origin: 'app://openai4s', isMainFrame: true };
    const session = core.ledger.createSession('navigator');
    const ctx = { origin: 'tool' as const, sessionId: session.id, runId: null, workspace: dir, signal: new AbortController().signal };

    const before = await core.host.dispatcher.dispatch('science_navigator', { question: 'What is CRISPR?' }, ctx);
    expect(before.status).toBe('error');
    expect(before.text).toMatch(/no access key is set.*OPENAI4S_BOHRIUM_ACCESS_KEY.*Settings/);

    const answer = await router.handle('settings.key.set', { providerId: 'bohrium', key: KEY }, caller);
    expect(JSON.stringify(answer)).not.toContain(KEY);
    expect(answer).toMatchObject({ ok: true, data: { keys: [{ providerId: 'bohrium', hint: '••••0042' }] } });

    const after = await core.host.dispatcher.dispatch('science_navigator', { question: 'What is CRISPR?' }, ctx);
    expect(after.status).toBe('ok');
    expect(server.seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });
});

describe('the Science Navigator key from the data root .env', () => {
  it('is a registered secret from the start: scrubbed from text before any use', async () => {
    const { scrubSecrets, clearRegisteredSecrets } = await import('../../../src-main/core/security/secrets');
    clearRegisteredSecrets();
    fs.writeFileSync(path.join(dir, '.env'), 'OPENAI4S_BOHRIUM_ACCESS_KEY=bohr-dotenv-key-777777\n');
    core = createCore({ env: { PATH: process.env.PATH, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0' } });
    expect(scrubSecrets('echoed bohr-dotenv-key-777777 back')).toBe('echoed [redacted] back');
  });
});
