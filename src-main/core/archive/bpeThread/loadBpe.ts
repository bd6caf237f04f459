import type { BpeEncoding } from './protocol';

/**
 * Loads gpt-tokenizer's tables for `encoding` and returns its count, the one way both the
 * counting thread (entry.ts) and the in-process fallback (tokens.ts) count.
 */
export async function loadBpe(encoding: BpeEncoding): Promise<(text: string) => number> {
  const m = encoding === 'o200k_base' ? await import('gpt-tokenizer/encoding/o200k_base') : await import('gpt-tokenizer/encoding/cl100k_base');
  // Special-token strings inside a tool result (`<|endoftext|>`) are text here, never control.
  const options = { disallowedSpecial: new Set<string>() };
  return (text) => (text ? m.countTokens(text, options) : 0);
}
