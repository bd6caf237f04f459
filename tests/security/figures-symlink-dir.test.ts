/**
 * Issue 13, item 1: figures written through a symlinked folder. A real sandboxed cell
 * replaces `figures/` with a symlink to a host folder and forges a display frame; the
 * host, saving the figure, must not write into the host folder (the old code's plain
 * mkdir + writeFileSync followed the symlink). The cell's result says the figure was
 * not saved and why.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeSupervisor } from '../core/kernel/helpers';
import { forgeFigureCode } from './support/forgedFigure';

const { sup, dataDir } = makeSupervisor();
const hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-host-folder-'));
afterAll(async () => {
  await sup.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(hostDir, { recursive: true, force: true });
});

describe('figures: a symlinked figures/ folder', () => {
  it('the host never writes a figure into the folder the symlink names', async () => {
    const plant = `import os, shutil\nshutil.rmtree("figures", ignore_errors=True)\nos.symlink(${JSON.stringify(hostDir)}, "figures")\nprint(os.path.islink("figures"))`;
    const planted = await sup.execute('figdir', 'python', plant);
    expect(planted.stdout).toBe('True\n');
    const r = await sup.execute('figdir', 'python', forgeFigureCode('#!/bin/sh\necho owned\n'));
    expect(r.status).toBe('ok');
    expect(fs.readdirSync(hostDir)).toEqual([]);
    expect(r.displays.filter((d) => d.path)).toEqual([]);
    expect(r.displays.map((d) => d.data['text/plain']).join('\n')).toMatch(/not saved: .*"figures" on its path is a symlink/);
    // A later, honest figure is saved once the cell puts a real folder back.
    await sup.execute('figdir', 'python', 'import os\nos.remove("figures")\nos.mkdir("figures")');
    const ok = await sup.execute('figdir', 'python', forgeFigureCode('PNG'));
    const saved = ok.displays.find((d) => d.path);
    expect(saved?.path).toMatch(/^figures\/[0-9a-f]{8}-cell4-1\.png$/);
    expect(fs.readFileSync(path.join(sup.workspaceFor('figdir'), saved!.path!), 'utf8')).toBe('PNG');
    expect(fs.readdirSync(hostDir)).toEqual([]);
  });
});
