/** The diffs `openai4s reproduce` prints for a text or a table that no longer matches. */
import { describe, expect, it } from 'vitest';
import { asText, fileDiff, lineDiff, tableDiff } from '../../../src-main/core/export/reproduce/textDiff';

describe('reproduce diffs', () => {
  it('a line diff keeps the common lines and shows removed before added', () => {
    expect(lineDiff('a\nb\nc\nd', 'a\nb\nX\nd')).toEqual(['@@ line 3 @@', '-c', '+X']);
    expect(lineDiff('a\nb', 'a\nb\nc')).toEqual(['@@ line 3 @@', '+c']);
  });

  it('a table diff names the row and the column of each changed cell, quoted fields kept whole', () => {
    const recorded = 'chain,mass,"note, free"\nA,2383.7,x\nB,3430.0,y\n';
    const recomputed = 'chain,mass,"note, free"\nA,2383.7,x\nB,3431.2,y\n';
    expect(tableDiff(recorded, recomputed, ',')).toEqual(['row 2, column "mass": "3430.0" -> "3431.2"']);
    expect(tableDiff(recorded, 'chain,mass,"note, free"\nA,2383.7,x\n', ',')).toEqual(['rows: 2 recorded, 1 recomputed (header excluded)']);
    expect(fileDiff('results/chains.tsv', 'a\tb\n1\t2\n', 'a\tb\n1\t3\n')).toEqual({ kind: 'table', lines: ['row 1, column "b": "2" -> "3"'] });
  });

  it('binary bytes are not text', () => {
    expect(asText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0]))).toBeNull();
    expect(asText(new Uint8Array([0xff, 0xfe]))).toBeNull();
    expect(asText(new TextEncoder().encode('>sp|P01308\n'))).toBe('>sp|P01308\n');
  });
});
