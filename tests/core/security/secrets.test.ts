import { afterEach, describe, expect, it } from 'vitest';
import { loadConfigEnv } from '../../../src-main/core/config/env';
import { REDACTED, clearRegisteredSecrets, configuredSecrets, registerSecrets, scrubChunk, scrubSecrets } from '../../../src-main/core/security/secrets';

afterEach(() => clearRegisteredSecrets());

describe('scrubSecrets', () => {
  it('replaces configured secret values wherever they appear, whatever their shape', () => {
    registerSecrets(['0f9e8d7c-6b5a-4321-8765-fedcba987654', 'short', 'your-api-key']);
    expect(scrubSecrets('key 0f9e8d7c-6b5a-4321-8765-fedcba987654 rejected')).toBe(`key ${REDACTED} rejected`);
    // Too short or placeholder values are not registered: they would redact ordinary words.
    expect(scrubSecrets('a short note about your-api-key')).toBe('a short note about your-api-key');
    expect(scrubSecrets('x plain-value-12345 y', ['plain-value-12345'])).toBe(`x ${REDACTED} y`);
  });

  it.each([
    ['sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv', REDACTED],
    ['Authorization: Bearer abc123def456ghi789', `Authorization: Bearer ${REDACTED}`],
    ['https://x.test/v1?api_key=ZXY987wvu654&model=m', `https://x.test/v1?api_key=${REDACTED}&model=m`],
    ['{"access_token": "tok_8a7b6c5d4e3f"}', `{"access_token": "${REDACTED}"}`],
    ['AKIAIOSFODNN7EXAMPLE in use', `${REDACTED} in use`],
    ['AIzaSyA1234567890abcdefghijklmnopqrstuv', REDACTED],
    ['ghp_0123456789abcdefghijABCDEFGHIJ012345', REDACTED],
    ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk', REDACTED],
    ['Incorrect API key provided: 8c1f2e3d4b5a69788796a5b4', `Incorrect API key provided: ${REDACTED}`],
  ])('redacts the credential in %s', (input, expected) => {
    expect(scrubSecrets(input)).toBe(expected);
  });

  it.each([
    'The sequence MALWMRLLPLLALLALWGPDPAAAFVNQHLCGSHLVEALYLVCGERGFFYTPKT',
    'artifact key figures/plot1.png saved, sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    'session 123e4567-e89b-12d3-a456-426614174000, max_tokens=4096, os.environ["OPENAI_API_KEY"]',
    'Use a token: the value comes from Settings.',
  ])('leaves ordinary text alone: %s', (input) => {
    expect(scrubSecrets(input)).toBe(input);
  });

  it('scrubs every string of a stored chunk but leaves deltas whole', () => {
    registerSecrets(['configured-secret-value-1']);
    expect(scrubChunk({ type: 'error', errorText: 'bad key configured-secret-value-1' })).toEqual({ type: 'error', errorText: `bad key ${REDACTED}` });
    const meta = { type: 'message-metadata', messageMetadata: { run: { failureMessage: 'Bearer configured-secret-value-1', turns: 1 } } };
    expect(scrubChunk(meta)).toEqual({ type: 'message-metadata', messageMetadata: { run: { failureMessage: `Bearer ${REDACTED}`, turns: 1 } } });
    const delta = { type: 'text-delta', id: 't', delta: 'configured-secret-value-1' };
    expect(scrubChunk(delta)).toBe(delta);
  });

  it('collects provider keys from the environment and .env layers, and secret-named variables', () => {
    const env = loadConfigEnv('/nonexistent-openai4s-dir', { OPENAI4S_DEEPSEEK_API_KEY: 'ds-key-000111222', OPENAI4S_LLM_API_KEY: 'shared-key-333444' });
    const found = configuredSecrets(env, (id) => (id === 'anthropic' ? 'stored-anthropic-key-99' : null), { MY_SERVICE_TOKEN: 'svc-token-5566778', HOME: '/home/x' });
    expect(found).toEqual(expect.arrayContaining(['ds-key-000111222', 'shared-key-333444', 'stored-anthropic-key-99', 'svc-token-5566778']));
    expect(found).not.toContain('/home/x');
  });
});
