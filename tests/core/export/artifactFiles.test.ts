/**
 * Issue 14, item 6: where artifact versions go in an export. Every version keeps its
 * real extension (`artifacts/<folder>/v<N>/<name>.<ext>`), names stay unique also on
 * case-insensitive disks, and a safe workspace path gives a name the export rules accept.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ArtifactVersion } from '../../../src-preload/contract/artifacts';
import { artifactExportName, exportedArtifactNames } from '../../../src-main/core/export/artifactFiles';
import { collisionKey, unsafeNameReason } from '../../../src-main/core/export/entryNames';
import { markdownFileLink } from '../../../src-main/core/export/markdownLink';
import { cellTitle, figureStem } from '../../../src-main/core/kernel/figureName';

const version = (path: string, number: number): ArtifactVersion => ({ path, number }) as ArtifactVersion;

describe('artifact names in an export', () => {
  it('puts the version in a folder above the file, keeping its name and extension', () => {
    expect(artifactExportName('figures/INS-composition.png', 1)).toBe('artifacts/figures/v1/INS-composition.png');
    expect(artifactExportName('sequences/P01308.fasta', 12)).toBe('artifacts/sequences/v12/P01308.fasta');
    expect(artifactExportName('structures/4INS.pdb', 2)).toBe('artifacts/structures/v2/4INS.pdb');
    expect(artifactExportName('notes.md', 1)).toBe('artifacts/v1/notes.md');
    expect(artifactExportName('a/b/table.tar.gz', 3)).toBe('artifacts/a/b/v3/table.tar.gz');
  });

  it('keeps (path, version) pairs apart that a naive layout would merge', () => {
    const exported = exportedArtifactNames([version('figures/x.png', 1), version('figures/v1/x.png', 1), version('v1/x.png', 1), version('x.png', 1)]);
    expect(exported.map((e) => e.file)).toEqual(['artifacts/figures/v1/x.png', 'artifacts/figures/v1/v1/x.png', 'artifacts/v1/v1/x.png', 'artifacts/v1/x.png']);
  });

  it('suffixes names that are one file on a case-insensitive or normalising disk', () => {
    const exported = exportedArtifactNames([version('Data/Table.csv', 1), version('data/table.csv', 1), version('DATA/TABLE.CSV', 1), version('caf\u00e9.txt', 1), version('cafe\u0301.txt', 1), version('README', 1), version('readme', 1)]);
    expect(exported.map((e) => e.file)).toEqual([
      'artifacts/Data/v1/Table.csv',
      'artifacts/data/v1/table-2.csv',
      'artifacts/DATA/v1/TABLE-3.CSV',
      'artifacts/v1/caf\u00e9.txt',
      'artifacts/v1/cafe\u0301-2.txt',
      'artifacts/v1/README',
      'artifacts/v1/readme-2',
    ]);
  });

  it('property: any set of workspace paths gives unique, safe names that keep each extension', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._ -]{0,8}$/).filter((s) => s !== '..' && s !== '.');
    const artifactPath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
    const versions = fc.array(fc.tuple(artifactPath, fc.integer({ min: 1, max: 20 })), { maxLength: 30 });
    fc.assert(
      fc.property(versions, (pairs) => {
        const unique = [...new Map(pairs.map(([p, n]) => [`${p}\0${n}`, version(p, n)])).values()];
        const files = exportedArtifactNames(unique).map((e) => e.file);
        expect(new Set(files.map(collisionKey)).size).toBe(files.length);
        files.forEach((file, i) => {
          expect(unsafeNameReason(file), file).toBeNull();
          const ext = /\.[^./]*$/.exec(unique[i]!.path.split('/').at(-1)!)?.[0] ?? '';
          expect(file.endsWith(ext)).toBe(true);
          expect(file.split('/').at(-2)).toBe(`v${unique[i]!.number}`);
        });
      }),
    );
  });
});

describe('figure and cell titles as file names', () => {
  it('keeps letters and digits of any script, turns the rest into single dashes', () => {
    expect(figureStem('INS composition')).toBe('INS-composition');
    expect(figureStem('  Kyte–Doolittle hydropathy (window 9)  ')).toBe('Kyte-Doolittle-hydropathy-window-9');
    expect(figureStem('人胰岛素：组成')).toBe('人胰岛素-组成');
    expect(figureStem('snake_case_title')).toBe('snake_case_title');
    expect(figureStem('lpt1')).toBe('lpt1-figure');
    expect(figureStem('\u202e\u200b')).toBeNull();
    expect(figureStem('')).toBeNull();
    expect(Array.from(figureStem('图'.repeat(100))!)).toHaveLength(60);
  });

  it('a cell title is its first non-blank line when that is a comment', () => {
    expect(cellTitle('\n\n# Composition of INS\nx = 1')).toBe('Composition of INS');
    expect(cellTitle('## %% Plot the profile\nx = 1')).toBe('Plot the profile');
    expect(cellTitle('x = 1\n# not a title')).toBeNull();
    expect(cellTitle('#!/usr/bin/env python\nx = 1')).toBeNull();
    expect(cellTitle('# -*- coding: utf-8 -*-\nx = 1')).toBeNull();
    expect(cellTitle('#\nx = 1')).toBeNull();
  });
});

describe('links to exported files', () => {
  it('percent-encodes the target and escapes the text', () => {
    expect(markdownFileLink('artifacts/figures/v1/INS-composition.png')).toBe('[artifacts/figures/v1/INS-composition.png](artifacts/figures/v1/INS-composition.png)');
    expect(markdownFileLink('artifacts/v1/a b (1)#?.png')).toBe('[artifacts/v1/a b (1)#?.png](artifacts/v1/a%20b%20%281%29%23%3F.png)');
    expect(markdownFileLink('artifacts/v1/[x](y)_*.txt')).toBe('[artifacts/v1/\\[x\\](y)\\_\\*.txt](artifacts/v1/%5Bx%5D%28y%29_%2A.txt)');
    expect(markdownFileLink('artifacts/v1/图.png')).toBe('[artifacts/v1/图.png](artifacts/v1/%E5%9B%BE.png)');
  });
});
