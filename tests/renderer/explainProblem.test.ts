/**
 * Failures become one sentence with the cause and the fix: from the core's classification
 * first (errorType, code, status), from the recorded message for runs that predate it.
 */
import { describe, expect, it } from 'vitest';
import { explainProblem, problemKind, providerErrorOf, type ProviderContext } from '../../src-renderer/src/errors/explain';
import { isLoopbackUrl, providerContext } from '../../src-renderer/src/errors/providerContext';
import { translate } from '../../src-renderer/src/i18n/language';
import type { MessageKey } from '../../src-renderer/src/i18n/messages';
import { providerStatus } from './support';

const remote: ProviderContext = { id: 'openai', label: 'OpenAI', baseUrl: 'https://api.openai.com/v1', model: 'gpt-5-mini', local: false, defaultBaseUrl: 'https://api.openai.com/v1' };
const ollama: ProviderContext = { id: 'ollama', label: 'Ollama (local)', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen3:8b', local: true, defaultBaseUrl: 'http://127.0.0.1:11434/v1' };
const localServer: ProviderContext = { ...remote, baseUrl: 'http://127.0.0.1:8080/v1', local: true };

describe('problemKind', () => {
  it('reads the core classification of provider errors', () => {
    const cases: [Parameters<typeof problemKind>[0], ProviderContext, string][] = [
      [{ errorType: 'authentication', code: 'missing_api_key', message: 'No API key for OpenAI.' }, remote, 'no_key'],
      [{ errorType: 'authentication', code: 'invalid_api_key', status: 401, message: 'Incorrect API key' }, remote, 'bad_key'],
      [{ errorType: 'rate_limit', code: 'insufficient_quota', status: 429, message: 'You exceeded your current quota' }, remote, 'quota'],
      [{ errorType: 'rate_limit', code: 'rate_limit_exceeded', status: 429, message: 'slow down' }, remote, 'rate_limit'],
      [{ errorType: 'llm', code: 'model_not_found', status: 404, message: 'no such model' }, remote, 'model_unknown'],
      [{ errorType: 'llm', code: 'ModelNotOpen', status: 404, message: 'not activated' }, remote, 'model_not_enabled'],
      [{ errorType: 'validation', code: 'not_event_stream', message: 'answered with text/html, not an event stream' }, remote, 'wrong_endpoint'],
      [{ errorType: 'network', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' }, ollama, 'ollama_not_running'],
      [{ errorType: 'network', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' }, localServer, 'not_running'],
      [{ errorType: 'network', code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND' }, remote, 'unreachable'],
      [{ errorType: 'network', code: 'stream_truncated', message: 'The stream ended before the provider finished' }, localServer, 'connection_lost'],
      [{ errorType: 'timeout', code: 'connect_timeout', message: 'no response headers within 60 s' }, remote, 'timeout'],
      [{ errorType: 'llm', code: 'http_500', status: 500, message: 'Internal Server Error' }, remote, 'provider_error'],
      [{ errorType: 'validation', code: 'context_length_exceeded', status: 400, message: 'maximum context length is 128000 tokens' }, remote, 'too_large'],
    ];
    for (const [input, ctx, kind] of cases) expect(problemKind({ failureCode: 'provider_unavailable', ...input }, ctx), JSON.stringify(input)).toBe(kind);
  });

  it('the engine’s own failures are named by their code', () => {
    expect(problemKind({ failureCode: 'invalid_output', message: 'finalize_response was invalid 3 times' }, remote)).toBe('invalid_output');
    expect(problemKind({ failureCode: 'budget_exhausted', message: 'Stopped after 24 turns' }, remote)).toBe('budget_exhausted');
    expect(problemKind({ failureCode: 'refused', message: 'screened' }, remote)).toBe('refused');
    expect(problemKind({ failureCode: 'internal', message: 'Engine error: boom' }, remote)).toBe('internal');
  });

  it('a run recorded before the classification is read from its message', () => {
    expect(problemKind({ failureCode: 'not_configured', message: 'No API key for Volcengine Ark (Doubao). Set OPENAI4S_ARK_API_KEY ...' }, null)).toBe('no_key');
    expect(problemKind({ failureCode: 'provider_unavailable', message: 'openai: Cannot connect to API: connect ECONNREFUSED 127.0.0.1:11434 (http://127.0.0.1:11434/v1/chat/completions)' }, ollama)).toBe('ollama_not_running');
  });
});

describe('explainProblem', () => {
  it('points to the setup where the fix is a key, base URL or model; otherwise only Retry', () => {
    expect(explainProblem({ code: 'missing_api_key', errorType: 'authentication', message: '' }, remote, 'x').fix).toBe('setup');
    expect(explainProblem({ code: 'model_not_found', status: 404, message: '' }, remote, 'x').fix).toBe('setup');
    expect(explainProblem({ errorType: 'rate_limit', status: 429, message: '' }, remote, 'x').fix).toBe('retry');
  });

  it('fills the sentence in both languages, with no code in it', () => {
    const why = explainProblem({ errorType: 'network', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' }, ollama, 'x');
    const en = translate('en', `problem.${why.kind}` as MessageKey, why.params);
    const zh = translate('zh-CN', `problem.${why.kind}` as MessageKey, why.params);
    expect(en).toBe('Ollama is not running at http://127.0.0.1:11434/v1. Start it with “ollama serve” in a terminal, then retry.');
    expect(zh).toContain('Ollama 未在 http://127.0.0.1:11434/v1 运行');
    for (const text of [en, zh]) expect(text).not.toMatch(/ECONNREFUSED|provider_unavailable|\{/);
  });

  it('names the provider generically when the run does not say which', () => {
    const why = explainProblem({ failureCode: 'provider_unavailable', message: 'boom' }, null, 'The model provider');
    expect(translate('en', `problem.${why.kind}` as MessageKey, why.params)).toBe('The model provider had an error on its side. Retry in a moment.');
  });
});

describe('provider context', () => {
  it('knows loopback URLs and takes the URL and model the request used', () => {
    expect(isLoopbackUrl('http://localhost:1234/v1')).toBe(true);
    expect(isLoopbackUrl('https://api.openai.com/v1')).toBe(false);
    const ctx = providerContext(providerStatus('openai', 'OpenAI'), { baseUrl: 'http://127.0.0.1:9/v1', model: 'm' });
    expect(ctx).toMatchObject({ label: 'OpenAI', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', local: true });
  });

  it('reads the provider error a failed run recorded in its metadata', () => {
    expect(providerErrorOf({ run: { status: 'failed', providerError: { errorType: 'network', code: 'ECONNREFUSED', status: null, provider: 'ollama' } } })).toEqual({ errorType: 'network', code: 'ECONNREFUSED', status: null, provider: 'ollama' });
    expect(providerErrorOf({ run: { status: 'failed' } })).toBeNull();
    expect(providerErrorOf(null)).toBeNull();
  });
});
