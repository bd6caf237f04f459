import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { classifyError, costOf, findPrice } from '../../../src-main/core/llm';
import { retryAfterOf } from '../../../src-main/core/llm/errors';
import { retryDelay, DEFAULT_RETRY } from '../../../src-main/core/llm/retry';

const usage = (promptTokens: number, completionTokens: number, cachedTokens = 0) => ({ promptTokens, completionTokens, cachedTokens, reasoningTokens: null });

describe('prices', () => {
  it('matches dated and dotted model ids to their family, never a longer sibling', () => {
    expect(findPrice('openai', 'gpt-4o-mini-2024-07-18')?.model).toBe('gpt-4o-mini');
    expect(findPrice('openai', 'gpt-4o-2024-08-06')?.model).toBe('gpt-4o');
    expect(findPrice('anthropic', 'claude-sonnet-4-5-20250929')?.model).toBe('claude-sonnet-4-5');
    expect(findPrice('ark', 'doubao-seed-1.6')?.model).toBe('doubao-seed-1-6');
    expect(findPrice('ark', 'doubao-seed-1-6-flash-250715')?.model).toBe('doubao-seed-1-6-flash');
    expect(findPrice('openai', 'gpt-4o-audio-preview')).toBeNull();
    expect(findPrice('ark', 'doubao-seed-2.0-pro')).toBeNull();
  });

  it('Doubao in yuan with prompt-length tiers; others in dollars; unknown prices are null, not guessed', () => {
    const base = 'https://ark.cn-beijing.volces.com/api/v3';
    expect(costOf('ark', 'doubao-seed-1-6-250615', base, usage(10_000, 1_000))).toEqual({ currency: 'CNY', amount: (10_000 * 0.8 + 1_000 * 8) / 1e6, priceId: 'ark:doubao-seed-1-6' });
    expect(costOf('ark', 'doubao-seed-1-6-250615', base, usage(100_000, 1_000))?.amount).toBeCloseTo((100_000 * 1.2 + 1_000 * 16) / 1e6, 12);
    expect(costOf('gemini', 'gemini-2.5-pro', '', usage(300_000, 0))?.amount).toBeCloseTo(0.75, 12);
    expect(costOf('openrouter', 'openrouter/auto', '', usage(10, 10))).toBeNull();
    expect(costOf('openai', 'gpt-5-mini', '', { ...usage(10, 10), promptTokens: null })).toBeNull();
  });

  it('the Ark Agent Plan is a flat subscription and a local model is free', () => {
    expect(costOf('ark', 'doubao-seed-2.0-pro', 'https://ark.cn-beijing.volces.com/api/plan/v3', usage(5000, 500))).toEqual({ currency: 'CNY', amount: 0, priceId: 'ark:agent-plan' });
    expect(costOf('ollama', 'qwen3:8b', 'http://127.0.0.1:11434/v1', usage(5000, 500))).toMatchObject({ amount: 0 });
  });
});

const apiError = (statusCode: number, body: unknown, headers: Record<string, string> = {}) =>
  new APICallError({ message: 'failed', url: 'http://127.0.0.1/v1', requestBodyValues: {}, statusCode, responseHeaders: headers, responseBody: JSON.stringify(body) });

describe('error classes', () => {
  it.each([
    [401, { error: { message: 'bad key', code: 'invalid_api_key' } }, 'authentication', 'invalid_api_key'],
    [403, { error: { code: 403, message: 'denied', status: 'PERMISSION_DENIED' } }, 'authentication', '403'],
    [429, { error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } }, 'rate_limit', '429'],
    [529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'rate_limit', 'overloaded_error'],
    [400, { error: { message: 'too long', code: 'context_length_exceeded' } }, 'validation', 'context_length_exceeded'],
    [404, { error: { message: 'The model `x` does not exist', code: 'model_not_found' } }, 'llm', 'model_not_found'],
    [500, 'upstream exploded', 'llm', 'http_500'],
    [504, {}, 'timeout', 'http_504'],
    [401, { error: { code: 'AuthenticationError', message: 'The API key format is incorrect.', type: 'Unauthorized' } }, 'authentication', 'AuthenticationError'],
    [429, { error: { code: 'ServerOverloaded', message: 'busy', type: 'TooManyRequests' } }, 'rate_limit', 'ServerOverloaded'],
    [404, { error: { code: 'InvalidEndpointOrModel.NotFound', message: 'The model or endpoint doubao-x does not exist', type: 'NotFound' } }, 'llm', 'InvalidEndpointOrModel.NotFound'],
  ])('HTTP %i %j -> %s', (status, body, errorType, code) => {
    expect(classifyError(apiError(status, body), 'p')).toMatchObject({ errorType, code, status });
  });

  it('an exhausted quota is a 429 that waiting cannot fix: not retryable', () => {
    expect(classifyError(apiError(429, { error: { message: 'You exceeded your current quota', code: 'insufficient_quota' } }), 'p')).toMatchObject({ errorType: 'rate_limit', retryable: false });
    expect(classifyError(apiError(429, { error: { message: 'slow down', code: 'rate_limit_exceeded' } }), 'p')).toMatchObject({ retryable: true });
  });

  it('keeps the provider message; our own bugs are internal; odd values unknown', () => {
    expect(classifyError(apiError(400, { error: { message: 'messages[2]: bad role', type: 'invalid_request_error' } }), 'p').message).toBe('messages[2]: bad role');
    expect(classifyError(new TypeError('x is undefined'), 'p')).toMatchObject({ errorType: 'internal', code: 'TypeError' });
    expect(classifyError(42, 'p')).toMatchObject({ errorType: 'unknown', message: '42' });
    const timeout = Object.assign(new Error('fetch failed'), { cause: Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' }) });
    expect(classifyError(timeout, 'p')).toMatchObject({ errorType: 'timeout', code: 'UND_ERR_CONNECT_TIMEOUT', retryable: true });
  });

  it('reads Retry-After as seconds, HTTP date or retry-after-ms', () => {
    expect(retryAfterOf(apiError(429, {}, { 'retry-after': '7' }))).toBe(7000);
    expect(retryAfterOf(apiError(429, {}, { 'retry-after-ms': '250' }))).toBe(250);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterOf(apiError(429, {}, { 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterOf(apiError(429, {}))).toBeNull();
  });

  it('backoff doubles with equal jitter and stops at the bound', () => {
    const p = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 300, maxRetries: 3 };
    expect([1, 2, 3].map((a) => retryDelay(p, a, null, () => 0))).toEqual([50, 100, 150]);
    expect([1, 2, 3].map((a) => retryDelay(p, a, null, () => 1))).toEqual([100, 200, 300]);
    expect(retryDelay(p, 4, null)).toBeNull();
    expect(retryDelay(p, 1, 2500)).toBe(2500);
  });
});
