import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { recallTool } from '../../../src-main/core/capabilities/tools/recallTool';
import { archiveFixture } from './support';

let fx: ReturnType<typeof archiveFixture>;
afterEach(() => fx?.close());

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
// Multi-byte characters everywhere, so a byte page that ignored boundaries would corrupt them.
const TEXT = Array.from({ length: 400 }, (_, i) => `行 ${i}: 胰岛素 insulin 🧬 ${'αβγ'.repeat(i % 5)} végétal`).join('\n');

describe('recall', () => {
  it('pages an archived result by bytes: the pages concatenate to the exact bytes, sha256 included', () => {
    fx = archiveFixture();
    const ref = fx.archive.put(fx.sessionId, fx.runId, 'read_text_file', TEXT);
    expect(ref.sha256).toBe(sha(Buffer.from(TEXT)));
    const pages: Buffer[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page = fx.archive.recall(fx.sessionId, ref.sha256, { byteOffset: offset, maxBytes: 1_000 });
      expect(page.byteStart).toBe(offset);
      expect(Buffer.byteLength(page.text)).toBe(page.byteEnd - page.byteStart);
      expect(page.byteEnd - page.byteStart).toBeLessThanOrEqual(1_000);
      pages.push(Buffer.from(page.text, 'utf8'));
      offset = page.nextByteOffset;
    }
    expect(pages.length).toBeGreaterThan(10);
    expect(sha(Buffer.concat(pages))).toBe(ref.sha256);
    // A page smaller than one character still returns the whole character.
    expect(fx.archive.recall(fx.sessionId, ref.sha256, { byteOffset: 0, maxBytes: 1 }).text).toBe('行');
  });

  it('pages by lines and reports where the page sits', () => {
    fx = archiveFixture();
    const ref = fx.archive.put(fx.sessionId, fx.runId, 'cell', TEXT);
    const page = fx.archive.recall(fx.sessionId, ref.sha256, { startLine: 10, lineCount: 3 });
    expect(page.text).toBe(`${TEXT.split('\n').slice(9, 12).join('\n')}\n`);
    expect([page.lineStart, page.lineEnd, page.totalLines]).toEqual([10, 12, 400]);
    expect(() => fx.archive.recall(fx.sessionId, ref.sha256, { startLine: 401 })).toThrow(/past the end: the result has 400 lines/);
  });

  it('refuses another session, an unknown hash, and an offset inside a character', () => {
    fx = archiveFixture();
    const ref = fx.archive.put(fx.sessionId, fx.runId, 'read_text_file', TEXT);
    const other = fx.ledger.createSession('other');
    expect(() => fx.archive.recall(other.id, ref.sha256)).toThrow(/No archived result .* in this session/);
    expect(() => fx.archive.recall(fx.sessionId, 'a'.repeat(64))).toThrow(/No archived result/);
    expect(() => fx.archive.recall(fx.sessionId, 'abc')).toThrow(/not a sha256/);
    expect(() => fx.archive.recall(fx.sessionId, ref.sha256, { byteOffset: 1 })).toThrow(/inside a character/);
  });

  it('is an on-demand tool whose output carries the exact page and whose text names the next page', async () => {
    fx = archiveFixture();
    const ref = fx.archive.put(fx.sessionId, fx.runId, 'read_text_file', TEXT);
    const tool = recallTool(() => fx.archive);
    expect(tool.onDemand).toBe(true);
    expect(tool.hostMethods).toEqual(['recall']);
    const parsed = tool.parse({ sha256: ref.sha256, max_bytes: 2_000 });
    expect(parsed.ok).toBe(true);
    const out = await tool.execute((parsed as { args: unknown }).args, { sessionId: fx.sessionId, runId: fx.runId, workspace: fx.dir, signal: new AbortController().signal, origin: 'tool' });
    const page = out.output as { text: string; nextByteOffset: number };
    expect(out.text).toContain(`byte_offset=${page.nextByteOffset}.`);
    expect(Buffer.from(TEXT).subarray(0, page.nextByteOffset).toString('utf8')).toBe(page.text);
    expect(out.untrustedSource).toContain(ref.sha256.slice(0, 12));
    expect(tool.parse({ sha256: ref.sha256, byte_offset: 0, start_line: 2 })).toMatchObject({ ok: false });
  });
});
