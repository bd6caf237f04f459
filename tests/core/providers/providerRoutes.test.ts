/**
 * The provider routes over a real core: the setup form saves a key (encrypted store),
 * base URL and model (ledger) that runs then use; variables still win; readiness and
 * the connection test go through the same resolution a run does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../src-preload/contract/routes';
import type { ProvidersView } from '../../../src-preload/contract/providers';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { createCore, type Core } from '../../../src-main/core/core';
import { createRouter } from '../../../src-main/core/api/router';
import { memorySecretStore } from '../../../src-main/core/settings/secretStore';
import { startScriptedModel, type ScriptedModel } from '../../support/scriptedModel';
import { freePort } from '../../support/daemons';

const KEY = 'sk-setup-form-key-000777';
const caller = { origin: 'app://openai4s', isMainFrame: true };
let dir: string;
let core: Core | null = null;
let model: ScriptedModel;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-providers-'));
  model = await startScriptedModel();
});
afterEach(async () => {
  await core?.close();
  core = null;
  await model.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** No key, base URL or model of any provider from the machine running the tests. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (/^OPENAI4S_/.test(name)) delete env[name];
  return { ...env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0', ...extra };
}

async function call<T>(route: string, input: unknown): Promise<T> {
  const r = createRouter(routes, createHandlers(core!), { checkSender: () => true });
  const answer = await r.handle(route as keyof typeof routes, input, caller);
  if (!answer.ok) throw new Error(`${answer.error.code}: ${answer.error.message}`);
  return answer.data as T;
}

const byId = (view: ProvidersView, id: string) => view.providers.find((p) => p.id === id)!;

describe('provider routes', () => {
  it('on a first start nothing is ready: keys are missing and a local Ollama that does not answer is not running', async () => {
    const port = await freePort();
    core = createCore({ env: cleanEnv({ OPENAI4S_OLLAMA_BASE_URL: `http://127.0.0.1:${port}/v1` }), secrets: memorySecretStore() });
    const view = await call<ProvidersView>('provider.list', {});
    expect(view.providers.map((p) => p.id)[0]).toBe('ark');
    expect(view.providers.filter((p) => p.readiness.state === 'ready')).toEqual([]);
    expect(byId(view, 'ark')).toMatchObject({ readiness: { state: 'no_key' }, isDefault: true, keyUrl: expect.stringContaining('volcengine'), baseUrlOrigin: 'default' });
    expect(byId(view, 'ollama')).toMatchObject({ local: true, requiresKey: false, readiness: { state: 'not_running', detail: 'connection refused' } });
    expect(view.keyStorage.available).toBe(true);
  });

  it('the setup form saves key, base URL and model; the provider turns ready and a run uses them', async () => {
    core = createCore({ env: cleanEnv(), secrets: memorySecretStore() });
    const saved = await call<ProvidersView>('provider.configure', { providerId: 'openai', key: KEY, baseUrl: model.baseUrl, model: 'form-model', makeDefault: true });
    const openai = byId(saved, 'openai');
    expect(openai).toMatchObject({
      readiness: { state: 'ready' },
      keySource: 'settings',
      storedKeyHint: '••••0777',
      baseUrl: model.baseUrl,
      baseUrlOrigin: 'settings',
      model: 'form-model',
      modelOrigin: 'settings',
      isDefault: true,
      local: true,
    });
    expect(saved.defaultProvider).toBe('openai');
    expect(JSON.stringify(saved)).not.toContain(KEY);
    // The System page agrees: the doctor marks the same default and shows the same endpoint.
    const doctor = await core.doctor();
    expect(doctor.providers.find((p) => p.id === 'openai')).toMatchObject({ isDefault: true, baseUrl: model.baseUrl, model: 'form-model', keySource: 'settings' });

    // A run without a provider choice goes to the saved default, with the saved endpoint and model.
    model.push({ reply: [{ text: 'plain answer' }] }, { reply: [{ text: 'plain answer' }] });
    const session = core.ledger.createSession('setup');
    const run = core.runner.submit({ sessionId: session.id, mutationId: 'm1', message: 'hello' });
    await core.runner.result(run.id);
    expect(model.requests.length).toBeGreaterThan(0);
    expect((model.requests[0]!.body as { model: string }).model).toBe('form-model');
    expect(model.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);

    // null puts base URL and model back to the catalogue's.
    const reset = await call<ProvidersView>('provider.configure', { providerId: 'openai', baseUrl: null, model: null });
    expect(byId(reset, 'openai')).toMatchObject({ baseUrl: 'https://api.openai.com/v1', baseUrlOrigin: 'default', model: 'gpt-5-mini', modelOrigin: 'default' });
  });

  it('a variable wins over what Settings saved, and the view says which variable', async () => {
    core = createCore({ env: cleanEnv({ OPENAI4S_DEEPSEEK_MODEL: 'deepseek-env-model' }), secrets: memorySecretStore() });
    const view = await call<ProvidersView>('provider.configure', { providerId: 'deepseek', model: 'deepseek-form-model' });
    expect(byId(view, 'deepseek')).toMatchObject({ model: 'deepseek-env-model', modelOrigin: 'env', modelVariable: 'OPENAI4S_DEEPSEEK_MODEL' });
  });

  it('Test connection uses the form values before they are saved, and saves nothing', async () => {
    core = createCore({ env: cleanEnv(), secrets: memorySecretStore() });
    model.push({ reply: [{ text: 'OK' }] });
    const ok = await call<{ ok: boolean; model: string }>('provider.test', { providerId: 'openai', key: KEY, baseUrl: model.baseUrl, model: 'try-me' });
    expect(ok).toMatchObject({ ok: true, model: 'try-me' });
    const view = await call<ProvidersView>('provider.list', {});
    expect(byId(view, 'openai')).toMatchObject({ readiness: { state: 'no_key' }, storedKeyHint: null, baseUrlOrigin: 'default' });
  });

  it('refuses a base URL holding credentials and an unknown provider, naming the fix', async () => {
    core = createCore({ env: cleanEnv(), secrets: memorySecretStore() });
    await expect(call('provider.configure', { providerId: 'openai', baseUrl: 'https://user:pw@api.example.com/v1' })).rejects.toThrow(/key field, not in the base URL/);
    await expect(call('provider.configure', { providerId: 'nope', model: 'x' })).rejects.toThrow(/Unknown provider "nope"/);
    await expect(call('provider.configure', { providerId: 'openai', baseUrl: 'ftp://x' })).rejects.toThrow(/invalid_input/);
  });

  it('without a secret store the key is refused and nothing of the form is half-saved', async () => {
    core = createCore({ env: cleanEnv() });
    await expect(call('provider.configure', { providerId: 'openai', key: KEY, model: 'half' })).rejects.toThrow(/unavailable/);
    const view = await call<ProvidersView>('provider.list', {});
    expect(byId(view, 'openai').modelOrigin).toBe('default');
  });
});
