import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { retryAfterOf } from '../../../src-main/core/llm/errors';
import { retryAfterFromHeaders } from '../../../src-main/core/shared/retryAfter';

const NOW = Date.parse('2025-01-01T00:00:00Z');

describe('one Retry-After reading for providers and science databases', () => {
  it.each([
    [{ 'retry-after': '7' }, 7000],
    [{ 'retry-after': ' 1.5 ' }, 1500],
    [{ 'retry-after-ms': '250', 'retry-after': '7' }, 250],
    [{ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }, 5000],
    [{ 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }, 0],
    [{ 'retry-after': 'soon' }, null],
    [{ 'retry-after': '' }, null],
    [{}, null],
  ] as [Record<string, string>, number | null][])('%j -> %s ms, read the same from a fetch Response and from a provider error', (headers, expected) => {
    const response = new Response(null, { status: 429, headers });
    expect(retryAfterFromHeaders((name) => response.headers.get(name), NOW)).toBe(expected);
    const error = new APICallError({ message: 'failed', url: 'http://127.0.0.1/v1', requestBodyValues: {}, statusCode: 429, responseHeaders: headers });
    expect(retryAfterOf(error, NOW)).toBe(expected);
  });
});
