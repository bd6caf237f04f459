import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { afterEach, describe, expect, it } from 'vitest';
import { startBpeThread, type ThreadCounter } from '../../../src-main/core/archive/bpeThread/bpeCounter';

const started: ThreadCounter[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((t) => t.close()));
});

async function start(encoding: 'o200k_base' | 'cl100k_base'): Promise<ThreadCounter> {
  const thread = await startBpeThread(encoding);
  expect(thread, 'the BPE thread started').not.toBeNull();
  started.push(thread!);
  return thread!;
}

const TEXTS = [
  'The insulin receptor is a transmembrane receptor activated by insulin, IGF-I and IGF-II.',
  '胰岛素是由胰岛β细胞分泌的一种蛋白质激素。',
  JSON.stringify({ accession: 'P01308', organism: 'Homo sapiens', score: 0.37 }),
  'before <|endoftext|> after',
  'MALWMRLLPLLALLALWGPDPAAAFVNQHLCGSHLVEALYLVCGERGFFYTPKT '.repeat(400),
];

describe('the BPE counting thread', () => {
  it('counts every text as gpt-tokenizer does on the main thread, for both encodings, special-token strings as text', async () => {
    const o = await start('o200k_base');
    const c = await start('cl100k_base');
    const special = { disallowedSpecial: new Set<string>() };
    for (const text of TEXTS) {
      expect(o.count(text)).toBe(o200k(text, special));
      expect(c.count(text)).toBe(cl100k(text, special));
    }
    expect(o.count('')).toBe(0);
  });

  it('answers many counts in a row, each the one asked (no answer taken for another)', async () => {
    const o = await start('o200k_base');
    for (let i = 0; i < 300; i++) {
      const text = `${i} `.repeat(i % 17) + TEXTS[i % TEXTS.length]!.slice(0, 200);
      expect(o.count(text)).toBe(o200k(text, { disallowedSpecial: new Set<string>() }));
    }
  });

  it('answers null once closed, so the caller counts another way instead of waiting', async () => {
    const o = await start('o200k_base');
    await o.close();
    expect(o.count('hello')).toBeNull();
  });

  it('resolves null when its code is missing or fails to load, so the caller loads the tables itself', async () => {
    expect(await startBpeThread('o200k_base', () => null)).toBeNull();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bpe-'));
    const broken = path.join(dir, 'broken.js');
    fs.writeFileSync(broken, "throw new Error('no tables here');\n");
    expect(await startBpeThread('o200k_base', () => ({ file: broken, eval: false }))).toBeNull();
    const failing = path.join(dir, 'failing.js');
    fs.writeFileSync(failing, "require('node:worker_threads').parentPort.postMessage({ type: 'failed', message: 'cannot load' });\n");
    expect(await startBpeThread('o200k_base', () => ({ file: failing, eval: false }))).toBeNull();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
