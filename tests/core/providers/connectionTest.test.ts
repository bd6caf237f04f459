/**
 * Test connection sends one tiny real request through createModel (the run's path) with
 * the form's values, and brings a failure back classified, never with the key in it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testConnection, TEST_PROMPT } from '../../../src-main/core/providers/connectionTest';
import { startScriptedModel, type ScriptedModel } from '../../support/scriptedModel';
import { freePort } from '../../support/daemons';
import { envOf } from '../llm/helpers';

const KEY = 'sk-form-key-never-echoed-4242';

let server: ScriptedModel;
beforeEach(async () => {
  server = await startScriptedModel();
});
afterEach(() => server.close());

describe('testConnection', () => {
  it('answers ok with the start of the reply, using the key, base URL and model typed in the form', async () => {
    server.push({ reply: [{ text: 'OK' }] });
    const result = await testConnection('openai', { key: KEY, baseUrl: server.baseUrl, model: 'tiny-model' }, { env: envOf({}) });
    expect(result).toMatchObject({ ok: true, reply: 'OK', providerId: 'openai', baseUrl: server.baseUrl, model: 'tiny-model' });
    expect(server.requests).toHaveLength(1);
    const body = server.requests[0]!.body as { model: string; messages: { content: string }[]; max_tokens?: number };
    expect(body.model).toBe('tiny-model');
    expect(JSON.stringify(body.messages)).toContain(TEST_PROMPT);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('the form key wins over a key from the environment', async () => {
    server.push({ reply: [{ text: 'OK' }] });
    await testConnection('openai', { key: KEY, baseUrl: server.baseUrl }, { env: envOf({ OPENAI4S_OPENAI_API_KEY: 'sk-env-key-other-1111' }) });
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('a closed port is a network problem, at once (no retries)', async () => {
    const port = await freePort();
    const result = await testConnection('openai', { key: KEY, baseUrl: `http://127.0.0.1:${port}/v1` }, { env: envOf({}) });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem).toMatchObject({ errorType: 'network', code: 'ECONNREFUSED', status: null });
    expect(result.baseUrl).toBe(`http://127.0.0.1:${port}/v1`);
  });

  it('a refused key comes back as authentication, with the provider message scrubbed of the key', async () => {
    server.push({ error: { status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}`, type: 'invalid_request_error', code: 'invalid_api_key' } } } });
    const result = await testConnection('openai', { key: KEY, baseUrl: server.baseUrl }, { env: envOf({}) });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem).toMatchObject({ errorType: 'authentication', code: 'invalid_api_key', status: 401 });
    expect(result.problem.message).not.toContain(KEY);
    expect(server.requests).toHaveLength(1);
  });

  it('no key anywhere is reported before any request, as missing_api_key', async () => {
    const result = await testConnection('anthropic', {}, { env: envOf({}) });
    expect(result).toMatchObject({ ok: false, problem: { errorType: 'authentication', code: 'missing_api_key' } });
    expect(server.requests).toHaveLength(0);
  });

  it('a 404 (wrong path or model) keeps its status for the explanation', async () => {
    server.push({ error: { status: 404, body: { error: { message: 'The model `nope` does not exist', type: 'invalid_request_error', code: 'model_not_found' } } } });
    const result = await testConnection('openai', { key: KEY, baseUrl: server.baseUrl, model: 'nope' }, { env: envOf({}) });
    expect(result).toMatchObject({ ok: false, model: 'nope', problem: { status: 404, code: 'model_not_found' } });
  });
});
