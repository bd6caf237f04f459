import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { contextWindowFor } from '../../../src-main/core/archive/contextWindow';
import { estimateTokens, openAiEncoding, tokenCounterFor } from '../../../src-main/core/archive/tokens';

const SAMPLES = {
  english: 'The insulin receptor is a transmembrane receptor activated by insulin, IGF-I and IGF-II. '.repeat(40),
  chinese: '胰岛素是由胰岛β细胞分泌的一种蛋白质激素，是机体内唯一降低血糖的激素。'.repeat(40),
  sequence: 'MALWMRLLPLLALLALWGPDPAAAFVNQHLCGSHLVEALYLVCGERGFFYTPKTRREAEDLQVGQVELGGGPGAGSLQPLALEGSLQKRGIVEQCCTSICSLYQLENYCN'.repeat(20),
  json: JSON.stringify(Array.from({ length: 60 }, (_, i) => ({ accession: `P0${1308 + i}`, score: i * 0.37, organism: 'Homo sapiens' }))),
  hex: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'.repeat(30),
};

describe('token counts', () => {
  it('uses the real BPE for OpenAI models and the estimate for the others', async () => {
    expect(openAiEncoding('openai', 'gpt-5-mini')).toBe('o200k_base');
    expect(openAiEncoding('openrouter', 'openai/gpt-4o')).toBe('o200k_base');
    expect(openAiEncoding('openai', 'gpt-4-0613')).toBe('cl100k_base');
    expect(openAiEncoding('anthropic', 'claude-sonnet-4-5')).toBeNull();
    const bpe = await tokenCounterFor('openai', 'gpt-4o-mini');
    expect(bpe.method).toBe('bpe:o200k_base');
    expect(bpe.count(SAMPLES.english)).toBe(countTokens(SAMPLES.english));
    // A special-token string inside a result is text, not a refusal.
    expect(bpe.count('before <|endoftext|> after')).toBeGreaterThan(3);
    expect((await tokenCounterFor('ark', 'doubao-seed-2.0-pro')).method).toBe('estimate');
  });

  it('gives a remembered count for a long text that equals counting it again, across many distinct texts', async () => {
    const bpe = await tokenCounterFor('openai', 'gpt-4o-mini');
    const estimate = await tokenCounterFor('ark', 'doubao-seed-2.0-pro');
    const texts = Array.from({ length: 600 }, (_, i) => `${SAMPLES.english} ${i} `.repeat(3 + (i % 5)));
    for (let pass = 0; pass < 2; pass++) {
      for (const text of texts) {
        expect(bpe.count(text)).toBe(countTokens(text));
        expect(estimate.count(text)).toBe(estimateTokens(text));
      }
    }
  });

  it('estimates within the calibrated band of the real count, never far under (CJK, sequences and hashes included)', () => {
    for (const [name, text] of Object.entries(SAMPLES)) {
      const ratio = estimateTokens(text) / countTokens(text);
      expect(ratio, name).toBeGreaterThan(0.95);
      expect(ratio, name).toBeLessThan(1.8);
    }
  });
});

describe('context windows', () => {
  it('knows the catalogue families, falls back to the provider and a safe default, and takes an override', () => {
    expect(contextWindowFor('anthropic', 'claude-sonnet-4-5')).toEqual({ tokens: 200_000, source: 'model' });
    expect(contextWindowFor('ark', 'doubao-seed-2.0-pro').tokens).toBe(256_000);
    expect(contextWindowFor('ollama', 'qwen3:8b')).toEqual({ tokens: 8_192, source: 'provider' });
    expect(contextWindowFor('nowhere', 'mystery-1')).toEqual({ tokens: 32_000, source: 'default' });
    expect(contextWindowFor('openai', 'gpt-5-mini', '64000')).toEqual({ tokens: 64_000, source: 'env' });
    expect(() => contextWindowFor('openai', 'gpt-5-mini', 'lots')).toThrow(/OPENAI4S_CONTEXT_WINDOW=lots is not a window size/);
  });
});
