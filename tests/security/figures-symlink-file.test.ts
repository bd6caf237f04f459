/**
 * Issue 13, item 1: a figure path planted as a symlink. A real sandboxed cell creates
 * `figures/<generation>-cell<N>-1.png` (the name the host will use for its next figure)
 * as a symlink to a host file, then forges a display frame whose PNG is a shell script;
 * the host must not write through the symlink (the old writeFileSync replaced the host
 * file's content with the cell's bytes). Dangling symlinks (a file the host would create)
 * are never followed either. A figure never replaces an existing name (issue 14, item 6),
 * so the host saves it next to the planted link under a `-2` name, as a regular file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeSupervisor } from '../core/kernel/helpers';
import { forgeFigureCode } from './support/forgedFigure';

const { sup, dataDir } = makeSupervisor();
const hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-host-file-'));
const victim = path.join(hostDir, 'victim-rc');
afterAll(async () => {
  await sup.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(hostDir, { recursive: true, force: true });
});

describe('figures: a symlinked figure file', () => {
  it('the host never writes a figure through a symlink planted at its name', async () => {
    fs.writeFileSync(victim, 'original host content\n');
    const first = await sup.execute('figfile', 'python', 'print("hello")');
    const gen8 = first.generation.slice(0, 8);
    const next = first.cellNumber + 1;
    const plant = [
      'import os',
      'os.makedirs("figures", exist_ok=True)',
      `os.symlink(${JSON.stringify(victim)}, "figures/${gen8}-cell${next}-1.png")`,
      `os.symlink(${JSON.stringify(path.join(hostDir, 'created-by-host'))}, "figures/${gen8}-cell${next}-2.png")`,
    ].join('\n');
    const r = await sup.execute('figfile', 'python', `${plant}\n${forgeFigureCode('#!/bin/sh\necho owned\n')}\n${forgeFigureCode('second')}`);
    expect(r.cellNumber).toBe(next);
    expect(r.status).toBe('ok');
    expect(fs.readFileSync(victim, 'utf8')).toBe('original host content\n');
    expect(fs.readdirSync(hostDir)).toEqual(['victim-rc']);
    const saved = r.displays.filter((d) => d.path).map((d) => d.path);
    expect(saved).toEqual([`figures/${gen8}-cell${next}-1-2.png`, `figures/${gen8}-cell${next}-2-2.png`]);
    const ws = sup.workspaceFor('figfile');
    expect(saved.map((p) => fs.lstatSync(path.join(ws, p!)).isFile())).toEqual([true, true]);
    expect(fs.readFileSync(path.join(ws, saved[0]!), 'utf8')).toBe('#!/bin/sh\necho owned\n');
    // The planted links are left as they were: links, never written through.
    expect(fs.lstatSync(path.join(ws, `figures/${gen8}-cell${next}-1.png`)).isSymbolicLink()).toBe(true);
    expect(fs.readlinkSync(path.join(ws, `figures/${gen8}-cell${next}-1.png`))).toBe(victim);
  });
});
