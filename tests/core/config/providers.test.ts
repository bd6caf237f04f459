import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfigEnv } from '../../../src-main/core/config/env';
import { PROVIDERS, findProvider } from '../../../src-main/core/config/providerCatalog';
import {
  defaultProviderId,
  isPlaceholderKey,
  missingKeyMessage,
  resolveProvider,
} from '../../../src-main/core/config/providers';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-prov-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const spec = (id: string) => findProvider(id)!;

describe('provider catalog', () => {
  it('has ark as the default and the seven providers of the design', () => {
    expect(PROVIDERS.map((p) => p.id)).toEqual(['ark', 'openai', 'anthropic', 'gemini', 'deepseek', 'ollama', 'openrouter']);
    expect(defaultProviderId(loadConfigEnv(dir, {}))).toBe('ark');
    expect(spec('ark').baseUrl).toBe('https://ark.cn-beijing.volces.com/api/plan/v3');
  });

  it('lets OPENAI4S_PROVIDER choose, and names the known ids when it is wrong', () => {
    expect(defaultProviderId(loadConfigEnv(dir, { OPENAI4S_PROVIDER: 'openai' }))).toBe('openai');
    expect(() => defaultProviderId(loadConfigEnv(dir, { OPENAI4S_PROVIDER: 'gpt' }))).toThrow(
      /OPENAI4S_PROVIDER=gpt .*ark, openai/,
    );
  });
});

describe('key, base URL and model resolution', () => {
  it('prefers the provider key, then the shared key, and says which variable supplied it', () => {
    const both = resolveProvider(spec('openai'), loadConfigEnv(dir, { OPENAI4S_OPENAI_API_KEY: 'sk-a', OPENAI4S_LLM_API_KEY: 'sk-b' }));
    expect(both).toMatchObject({ apiKey: 'sk-a', keySource: 'env', keyVariable: 'OPENAI4S_OPENAI_API_KEY', configured: true });
    const shared = resolveProvider(spec('openai'), loadConfigEnv(dir, { OPENAI4S_LLM_API_KEY: 'sk-b' }));
    expect(shared).toMatchObject({ apiKey: 'sk-b', keyVariable: 'OPENAI4S_LLM_API_KEY' });
  });

  it('reads keys from the .env layer and reports that source', () => {
    fs.writeFileSync(path.join(dir, '.env'), 'OPENAI4S_ARK_API_KEY=ark-real-key\n');
    const ark = resolveProvider(spec('ark'), loadConfigEnv(dir, {}));
    expect(ark).toMatchObject({ keySource: 'dotenv', keyVariable: 'OPENAI4S_ARK_API_KEY', configured: true });
  });

  it('treats template placeholders as no key and falls through to the next layer', () => {
    for (const v of ['', '  ', '<your-key>', 'your-api-key', 'sk-xxxx', 'xxxxxxxx', '...', '${ARK_KEY}', 'changeme', 'YOUR_KEY_HERE']) {
      expect(isPlaceholderKey(v), v).toBe(true);
    }
    for (const v of ['sk-proj-abc123', 'x', 'test', 'a1b2c3d4-e5f6']) expect(isPlaceholderKey(v), v).toBe(false);
    const r = resolveProvider(spec('deepseek'), loadConfigEnv(dir, { OPENAI4S_DEEPSEEK_API_KEY: '<key>', OPENAI4S_LLM_API_KEY: 'real' }));
    expect(r).toMatchObject({ apiKey: 'real', keyVariable: 'OPENAI4S_LLM_API_KEY' });
  });

  it('uses the settings store only when no variable supplies a key', () => {
    const lookup = (id: string) => (id === 'anthropic' ? 'stored-key' : null);
    expect(resolveProvider(spec('anthropic'), loadConfigEnv(dir, {}), lookup)).toMatchObject({ keySource: 'settings', configured: true });
    expect(resolveProvider(spec('anthropic'), loadConfigEnv(dir, { OPENAI4S_ANTHROPIC_API_KEY: 'env-key' }), lookup)).toMatchObject({ apiKey: 'env-key', keySource: 'env' });
  });

  it('overrides base URL (version path kept, trailing slash dropped) and model per provider', () => {
    const r = resolveProvider(spec('openai'), loadConfigEnv(dir, { OPENAI4S_OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1/', OPENAI4S_OPENAI_MODEL: 'gpt-x' }));
    expect(r).toMatchObject({ baseUrl: 'http://127.0.0.1:8080/v1', baseUrlSource: 'env', model: 'gpt-x', modelSource: 'env' });
    const d = resolveProvider(spec('openai'), loadConfigEnv(dir, {}));
    expect(d).toMatchObject({ baseUrl: 'https://api.openai.com/v1', baseUrlSource: 'default', modelSource: 'default' });
  });

  it('needs no key for the local Ollama server', () => {
    expect(resolveProvider(spec('ollama'), loadConfigEnv(dir, {}))).toMatchObject({ configured: true, keySource: 'none' });
  });

  it('explains a missing key with the exact variables and the Settings page', () => {
    const r = resolveProvider(spec('ark'), loadConfigEnv(dir, {}));
    expect(r.configured).toBe(false);
    expect(missingKeyMessage(r)).toBe(
      "No API key for Volcengine Ark (Doubao). Set OPENAI4S_ARK_API_KEY or OPENAI4S_LLM_API_KEY (in your environment or the data root's .env), or enter a key in Settings → Providers.",
    );
  });
});
