/**
 * Issue 14, item 6: a figure's default name says what it is. A real sandboxed Python
 * cell draws figures; the host names each file after the figure's suptitle (else its
 * axes title, else the cell's title comment, else the kernel generation and cell
 * number), sanitised to a safe file name, and never replaces a file already there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { artifactExportName } from '../../../src-main/core/export/artifactFiles';
import { unsafeNameReason } from '../../../src-main/core/export/entryNames';
import { makeSupervisor } from '../kernel/helpers';

const { sup, dataDir } = makeSupervisor();
afterAll(async () => {
  await sup.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const PLOT = 'import matplotlib\nmatplotlib.use("Agg")\nimport matplotlib.pyplot as plt';
const figurePaths = (r: { displays: { path?: string }[] }) => r.displays.filter((d) => d.path).map((d) => d.path!);

describe('figure file names', () => {
  it('a figure with a suptitle is named after it, before its axes title and the cell title', async () => {
    const code = `# Overview of the run\n${PLOT}\nfig, ax = plt.subplots()\nax.plot([1, 2])\nax.set_title("axes title")\nfig.suptitle("Insulin B chain: hydropathy (window 9)")`;
    const r = await sup.execute('names', 'python', code);
    expect(r.status).toBe('ok');
    expect(figurePaths(r)).toEqual(['figures/Insulin-B-chain-hydropathy-window-9.png']);
    const png = fs.readFileSync(path.join(sup.workspaceFor('names'), 'figures/Insulin-B-chain-hydropathy-window-9.png'));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(r.displays.map((d) => d.data['text/plain']).join('\n')).toContain('saved as figures/Insulin-B-chain-hydropathy-window-9.png');
  }, 60_000);

  it('else the axes title, else the cell title comment, else generation and cell number', async () => {
    const axes = await sup.execute('names', 'python', `${PLOT}\nplt.bar([1], [2])\nplt.title("人胰岛素 组成")`);
    expect(figurePaths(axes)).toEqual(['figures/人胰岛素-组成.png']);
    const titled = await sup.execute('names', 'python', `\n# Composition of INS (human)\n${PLOT}\nplt.plot([1, 2])`);
    expect(figurePaths(titled)).toEqual(['figures/Composition-of-INS-human.png']);
    const bare = await sup.execute('names', 'python', `${PLOT}\nplt.plot([1, 2])\nplt.figure()\nplt.plot([3])`);
    const gen8 = bare.generation.slice(0, 8);
    expect(figurePaths(bare)).toEqual([`figures/${gen8}-cell${bare.cellNumber}-1.png`, `figures/${gen8}-cell${bare.cellNumber}-2.png`]);
  }, 60_000);

  it('never replaces an existing file: a taken name gets a -2, -3 suffix', async () => {
    const ws = sup.workspaceFor('names');
    // The cell itself writes a file at the name its figure would get.
    const code = `${PLOT}\nopen("figures/Dose-response.png", "w").write("mine")\nfor _ in range(2):\n    plt.figure()\n    plt.plot([1, 2])\n    plt.suptitle("Dose response")`;
    const r = await sup.execute('names', 'python', code);
    expect(figurePaths(r)).toEqual(['figures/Dose-response-2.png', 'figures/Dose-response-3.png']);
    expect(fs.readFileSync(path.join(ws, 'figures/Dose-response.png'), 'utf8')).toBe('mine');
    // The same title in a later cell does not replace the earlier figure either.
    const before = fs.readFileSync(path.join(ws, 'figures/Dose-response-2.png'));
    const later = await sup.execute('names', 'python', `${PLOT}\nplt.plot([5])\nplt.suptitle("Dose response")`);
    expect(figurePaths(later)).toEqual(['figures/Dose-response-4.png']);
    expect(fs.readFileSync(path.join(ws, 'figures/Dose-response-2.png'))).toEqual(before);
  }, 60_000);

  it('any title becomes a safe name inside figures/, also in an export', async () => {
    const titles = ['../../etc/passwd', '\u202egnp.exe', 'CON', '.env', 'a/b\\c:d*e?"<>|', '$\\alpha$ vs $\\beta$', 'x'.repeat(500), 'é\u0301\u200b\u0007tab\there', '   ', '...'];
    const code = `${PLOT}\nfor t in ${JSON.stringify(titles)}:\n    plt.figure()\n    plt.plot([1])\n    plt.suptitle(t)`;
    const r = await sup.execute('hostile', 'python', code);
    expect(r.status).toBe('ok');
    const names = figurePaths(r);
    const gen8 = r.generation.slice(0, 8);
    expect(names).toEqual([
      'figures/etc-passwd.png',
      'figures/gnp-exe.png',
      'figures/CON-figure.png',
      'figures/env.png',
      'figures/a-b-c-d-e.png',
      'figures/alpha-vs-beta.png',
      `figures/${'x'.repeat(60)}.png`,
      'figures/é́-tab-here.png',
      // Titles with nothing nameable fall back to generation and cell number.
      `figures/${gen8}-cell${r.cellNumber}-9.png`,
      `figures/${gen8}-cell${r.cellNumber}-10.png`,
    ]);
    for (const name of names) {
      expect(name).toMatch(/^figures\/[^/\\]+\.png$/);
      expect(unsafeNameReason(artifactExportName(name, 1)), name).toBeNull();
      expect(fs.lstatSync(path.join(sup.workspaceFor('hostile'), name)).isFile()).toBe(true);
    }
  }, 60_000);

  it('a display frame whose title is longer than the bound is dropped as invalid, not saved', async () => {
    const forge = [
      'import base64, json, os, sys',
      'f = sys._getframe()',
      "while f is not None and 'cell_id' not in f.f_locals:",
      '    f = f.f_back',
      'frame = {"type": "display", "id": f.f_locals["cell_id"], "title": "t" * 401, "data": {"image/png": base64.b64encode(b"PNG").decode()}}',
      'os.write(3, (json.dumps(frame) + "\\n").encode())',
      'del f, frame',
    ].join('\n');
    const r = await sup.execute('forged', 'python', forge);
    expect(figurePaths(r)).toEqual([]);
    expect(r.stderr).toMatch(/dropped an invalid frame from the kernel: .*title/);
    expect(fs.existsSync(path.join(sup.workspaceFor('forged'), 'figures'))).toBe(false);
  }, 60_000);
});
