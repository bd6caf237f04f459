import fs from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src-main/cli/main';
import { verifyExport } from '../../src-main/core/export/verify';
import { MAX_INFLATE_STEP_BYTES } from '../../src-main/core/export/zipLimits';
import { forgeManifest, genuineExport, json, removeExports, type GenuineExport } from './support/exportPackages';
import { patchDeclaredSize } from './support/rawZip';

// Attack: a small zip that inflates to far more than it declares. `verify` used to
// unzip the whole file into memory (a 6 MB bomb took 6.3 GB). Each entry must now be
// streamed, and verification stop at the first limit, holding one bounded step at a
// time. Memory is measured by counting every inflated step (an injected counter).
let genuine: GenuineExport;
const BOMB_BYTES = 64 * 1024 * 1024;
let bombZip: Uint8Array;

beforeAll(async () => {
  genuine = await genuineExport({ sign: false });
  // 64 MiB of zeros deflates to about 64 KiB; the manifest lists it honestly.
  const bomb = new Uint8Array(BOMB_BYTES);
  const files = new Map(genuine.files);
  files.set('artifacts/data.bin@v1', bomb);
  files.set('manifest.json', json(forgeManifest(genuine.manifest, [...files], {}, 'drop')));
  bombZip = zipSync(Object.fromEntries(files), { level: 9 });
});
afterAll(removeExports);

function write(name: string, zip: Uint8Array): string {
  const file = path.join(genuine.dataDir, `${name}.zip`);
  fs.writeFileSync(file, zip);
  return file;
}

/** Verifies with a counter of inflated bytes per entry; returns the report and the counts. */
function verifyCounting(file: string, limits = {}) {
  const inflated = new Map<string, number>();
  const report = verifyExport(file, { limits, onInflate: (entry, bytes) => inflated.set(entry, (inflated.get(entry) ?? 0) + bytes) });
  return { report, inflated: (entry: string) => inflated.get(entry) ?? 0 };
}

describe('verify refuses zip bombs with bounded memory', () => {
  it('accepts the genuine package, streaming each entry (control)', () => {
    const { report, inflated } = verifyCounting(genuine.zipFile);
    expect(report).toMatchObject({ ok: true, problems: [] });
    expect(inflated('session.json')).toBe(genuine.files.get('session.json')!.byteLength);
  });

  it('refuses an entry whose inflated bytes exceed what it declares, stopping within one step', () => {
    const lying = write('bomb-lying', patchDeclaredSize(bombZip, 'artifacts/data.bin@v1', 1000));
    const { report, inflated } = verifyCounting(lying);
    expect(report.ok).toBe(false);
    expect(report.issues).toContainEqual(expect.objectContaining({ kind: 'refused', entry: 'artifacts/data.bin@v1', limit: 'declaredSize' }));
    expect(report.problems.join('\n')).toMatch(/"artifacts\/data\.bin@v1": refused: it inflates to more than the 1000 bytes it declares/);
    expect(inflated('artifacts/data.bin@v1')).toBeGreaterThan(1000);
    expect(inflated('artifacts/data.bin@v1')).toBeLessThanOrEqual(1000 + MAX_INFLATE_STEP_BYTES);
    expect(MAX_INFLATE_STEP_BYTES).toBeLessThan(BOMB_BYTES / 8);
  });

  it('refuses by the compression ratio while inflating, even when the declared sizes look plausible', () => {
    // Declared at 150x its compressed size: under the ratio limit on paper, far over it in fact.
    const compressed = bombZip.byteLength; // an upper bound of the entry's compressed size
    const plausible = write('bomb-ratio', patchDeclaredSize(bombZip, 'artifacts/data.bin@v1', Math.min(compressed * 150, BOMB_BYTES)));
    const { report, inflated } = verifyCounting(plausible);
    expect(report.ok).toBe(false);
    expect(report.issues).toContainEqual(expect.objectContaining({ entry: 'artifacts/data.bin@v1', limit: 'maxRatio' }));
    expect(report.problems.join('\n')).toMatch(/inflates more than 200 times its compressed size \(maxRatio/);
    // Refused while streaming (not by the declared sizes), within one step past the 1 MiB floor.
    expect(inflated('artifacts/data.bin@v1')).toBeGreaterThan(1024 * 1024);
    expect(inflated('artifacts/data.bin@v1')).toBeLessThanOrEqual(1024 * 1024 + MAX_INFLATE_STEP_BYTES);
  });

  it('refuses an honest but oversized entry before inflating any of it (per-entry limit)', () => {
    const { report, inflated } = verifyCounting(write('bomb-honest', bombZip), { maxEntryBytes: 8 * 1024 * 1024, maxRatio: 10_000 });
    expect(report.ok).toBe(false);
    expect(report.problems).toContain(`"artifacts/data.bin@v1": refused: it declares ${BOMB_BYTES} bytes, more than the per-entry limit of 8 MiB (maxEntryBytes)`);
    expect(inflated('artifacts/data.bin@v1')).toBe(0);
  });

  it('refuses by the default ratio limit before inflating a bomb that declares its size honestly', () => {
    const { report, inflated } = verifyCounting(write('bomb-default', bombZip));
    expect(report.ok).toBe(false);
    expect(report.issues).toContainEqual(expect.objectContaining({ entry: 'artifacts/data.bin@v1', limit: 'maxRatio' }));
    expect(inflated('artifacts/data.bin@v1')).toBe(0);
  });

  it('refuses by the default per-entry limit an entry that declares 4 GB', () => {
    const { report, inflated } = verifyCounting(write('bomb-4g', patchDeclaredSize(bombZip, 'artifacts/data.bin@v1', 0xfffffffe)));
    expect(report.ok).toBe(false);
    expect(report.problems.join('\n')).toMatch(/"artifacts\/data\.bin@v1": refused: it declares 4294967294 bytes, more than the per-entry limit of 1 GiB \(maxEntryBytes\)/);
    expect(inflated('artifacts/data.bin@v1')).toBe(0);
  });

  it('refuses a package whose entries together exceed the total limit, before inflating', () => {
    const { report } = verifyCounting(write('bomb-total', bombZip), { maxTotalBytes: 32 * 1024 * 1024, maxRatio: 10_000 });
    expect(report.ok).toBe(false);
    expect(report.issues).toContainEqual(expect.objectContaining({ kind: 'refused', limit: 'maxTotalBytes' }));
  });

  it('openai4s verify names the limit and how to raise it for a package one trusts', async () => {
    const file = write('bomb-cli', bombZip);
    const run = async (...args: string[]) => {
      let out = '';
      let err = '';
      const code = await runCli(['verify', file, ...args], { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) }, { ...process.env, OPENAI4S_DATA_DIR: genuine.dataDir });
      return { code, out, err };
    };
    const refused = await run();
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^refused: "artifacts\/data\.bin@v1": refused: it declares 67108864 bytes from \d+ compressed, more than 200 times \(maxRatio\)/m);
    expect(refused.err).toContain(`hint: if you trust where ${file} came from, raise the limit: openai4s verify --max-ratio <N> ${file}`);
    expect(await run('--max-ratio', 'lots')).toMatchObject({ code: 2, err: expect.stringMatching(/--max-ratio needs a positive whole number/) });
    // Raised on purpose, the same package streams through (all 64 MiB, one step at a time).
    expect(await run('--max-ratio', '5000')).toMatchObject({ code: 0, out: expect.stringMatching(/^ok: \d+ files match/) });
  });

  it('refuses a zip with more entries than the limit, naming the limit', () => {
    const many = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`f${i}.txt`, new Uint8Array(0)]));
    const report = verifyExport(write('many', zipSync(many, { level: 0 })));
    expect(report.ok).toBe(false);
    expect(report.problems.join('\n')).toMatch(/the zip has 10001 entries, more than the limit of 10000 \(maxEntries\)/);
  });
});
