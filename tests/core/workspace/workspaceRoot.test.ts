import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listWorkspaceDir, readWorkspaceFile, WorkspaceNotFoundError, writeWorkspaceFile } from '../../../src-main/core/workspace/safeFs';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('the workspace folder is resolved once and remembered', () => {
  it('a folder removed after it was remembered is made again by the next write, and read back', () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-wsroot-'));
    dirs.push(base);
    const ws = path.join(base, 'workspaces', 'a');
    writeWorkspaceFile(ws, 'one.txt', 'first');
    expect(readWorkspaceFile(ws, 'one.txt').bytes.toString()).toBe('first');
    fs.rmSync(ws, { recursive: true });
    writeWorkspaceFile(ws, 'two.txt', 'second');
    expect(readWorkspaceFile(ws, 'two.txt').bytes.toString()).toBe('second');
    expect(fs.statSync(ws).mode & 0o777).toBe(0o700);
  });

  it('a read from a removed folder says the file is missing (as before the folder was remembered), and the folder is made again', () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-wsroot-'));
    dirs.push(base);
    const ws = path.join(base, 'ws');
    writeWorkspaceFile(ws, 'one.txt', 'first');
    fs.rmSync(ws, { recursive: true });
    expect(() => readWorkspaceFile(ws, 'one.txt')).toThrow(WorkspaceNotFoundError);
    expect(fs.existsSync(ws)).toBe(true);
  });
});

describe('the workspace root is held open between calls', () => {
  it('a burst of reads holds one descriptor on the root, and a root replaced by another folder (a spare adopted) is opened again by reads, writes and listings', async () => {
    const { heldWorkspaceRoots, releaseWorkspaceRoots } = await import('../../../src-main/core/workspace/heldRoots');
    releaseWorkspaceRoots();
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-wsroot-'));
    dirs.push(base);
    const ws = path.join(base, 'ws');
    writeWorkspaceFile(ws, 'note.txt', 'old');
    const fds = () => fs.readdirSync('/proc/self/fd').length;
    const before = fds();
    for (let i = 0; i < 100; i++) readWorkspaceFile(ws, 'note.txt');
    expect(fds()).toBe(before); // no descriptor leaks per call
    expect(heldWorkspaceRoots()).toBe(1);
    // Replace the folder as adoptWorkspace does: a new folder renamed onto the removed one.
    const spare = path.join(base, 'spare');
    fs.mkdirSync(spare);
    fs.writeFileSync(path.join(spare, 'note.txt'), 'new');
    fs.rmSync(ws, { recursive: true });
    fs.renameSync(spare, ws);
    expect(readWorkspaceFile(ws, 'note.txt').bytes.toString()).toBe('new');
    writeWorkspaceFile(ws, 'written.txt', 'kept');
    expect(fs.readFileSync(path.join(ws, 'written.txt'), 'utf8')).toBe('kept'); // not into the unlinked old folder
    // A listing checks the held root before it walks (a removed folder lists empty, no error).
    fs.mkdirSync(spare);
    fs.writeFileSync(path.join(spare, 'listed.txt'), 'x');
    fs.rmSync(ws, { recursive: true });
    fs.renameSync(spare, ws);
    expect(listWorkspaceDir(ws, '.').entries.map((e) => e.name)).toEqual(['listed.txt']);
    // A read checks it only once the lookup failed, then walks again from the path.
    fs.mkdirSync(spare);
    fs.writeFileSync(path.join(spare, 'note.txt'), 'newer');
    fs.rmSync(ws, { recursive: true });
    fs.renameSync(spare, ws);
    expect(readWorkspaceFile(ws, 'note.txt').bytes.toString()).toBe('newer');
    fs.rmSync(ws, { recursive: true });
    expect(() => readWorkspaceFile(ws, 'note.txt')).toThrow(WorkspaceNotFoundError);
    releaseWorkspaceRoots();
    expect(heldWorkspaceRoots()).toBe(0);
  });
});
