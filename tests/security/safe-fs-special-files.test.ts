/**
 * Issue 13, items 1 and 2: a cell can plant a fifo, a socket or a device node where the
 * host expects a file. The host must refuse them at once, never block on a fifo (a
 * blocked synchronous open would freeze the whole app) and never read or write a device.
 * Folders are refused where a file is expected, and files where a folder is.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTextFileTool, writeFileTool } from '../../src-main/core/capabilities/tools/fsTools';
import {
  WorkspaceKindError,
  listWorkspaceDir,
  readWorkspaceFile,
  walkWorkspaceFiles,
  withWorkspaceFile,
  writeWorkspaceFile,
} from '../../src-main/core/workspace/safeFs';
import { runTool } from './support/tools';
import { workspaceWithOutside } from './support/workspaces';

function expectKindError(op: () => unknown, label: string, pattern = /not a regular file/) {
  let error: unknown;
  try {
    op();
  } catch (e) {
    error = e;
  }
  expect(error, label).toBeInstanceOf(WorkspaceKindError);
  expect((error as Error).message, label).toMatch(pattern);
}

describe('safeFs: special files', () => {
  it('a fifo is refused for reading and writing without blocking the host', async () => {
    const { ws } = workspaceWithOutside();
    execFileSync('mkfifo', [path.join(ws, 'pipe.png')]);
    expectKindError(() => readWorkspaceFile(ws, 'pipe.png'), 'read');
    expectKindError(() => writeWorkspaceFile(ws, 'pipe.png', 'x'), 'write');
    expectKindError(() => withWorkspaceFile(ws, 'pipe.png', 'readwrite', () => 1), 'readwrite');
    await expect(runTool(readTextFileTool, { path: 'pipe.png' }, ws)).rejects.toThrow(/not a regular file/);
    await expect(runTool(writeFileTool, { path: 'pipe.png', content: 'x', reason: 't' }, ws)).rejects.toThrow(/not a regular file/);
    expect(listWorkspaceDir(ws, '.').entries).toEqual([{ name: 'pipe.png', kind: 'other', size: null }]);
    expect(walkWorkspaceFiles(ws, '.', 10)).toEqual([]);
  });

  it('a unix socket is refused', async () => {
    const { ws } = workspaceWithOutside();
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(ws, 'sock'), resolve));
    try {
      expectKindError(() => readWorkspaceFile(ws, 'sock'), 'read');
      expectKindError(() => writeWorkspaceFile(ws, 'sock', 'x'), 'write');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('a device node is never read or written (when this user may create one)', () => {
    const { ws } = workspaceWithOutside();
    const node = path.join(ws, 'null.png');
    try {
      execFileSync('mknod', [node, 'c', '1', '3'], { stdio: 'ignore' });
    } catch {
      return; // not permitted here (no CAP_MKNOD): neither can a sandboxed cell
    }
    for (const op of [() => readWorkspaceFile(ws, 'null.png'), () => writeWorkspaceFile(ws, 'null.png', 'x'), () => withWorkspaceFile(ws, 'null.png', 'readwrite', () => 1)]) {
      let error: unknown;
      try {
        op();
      } catch (e) {
        error = e;
      }
      // Refused as not a regular file, or by the mount (nodev: EACCES); never done.
      expect(error instanceof WorkspaceKindError || (error as NodeJS.ErrnoException)?.code === 'EACCES').toBe(true);
    }
  });

  it('a file with another hard link (possibly outside the workspace) is never written in place', async () => {
    const { ws, outside } = workspaceWithOutside();
    fs.linkSync(path.join(outside, 'secret.txt'), path.join(ws, 'linked.txt'));
    expectKindError(() => writeWorkspaceFile(ws, 'linked.txt', 'attacker'), 'write', /other hard links/);
    expectKindError(() => withWorkspaceFile(ws, 'linked.txt', 'readwrite', () => 1), 'readwrite', /other hard links/);
    await expect(runTool(writeFileTool, { path: 'linked.txt', content: 'attacker', reason: 't' }, ws)).rejects.toThrow(/other hard links/);
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('HOST SECRET');
  });

  it('a folder where a file is expected, and a file where a folder is, are refused with their own message', () => {
    const { ws } = workspaceWithOutside();
    fs.mkdirSync(path.join(ws, 'dir'));
    fs.writeFileSync(path.join(ws, 'file.txt'), 'x');
    expectKindError(() => readWorkspaceFile(ws, 'dir'), 'read a folder', /is a folder, not a file/);
    expectKindError(() => writeWorkspaceFile(ws, 'dir', 'x'), 'write a folder', /is a folder, not a file/);
    expectKindError(() => listWorkspaceDir(ws, 'file.txt'), 'list a file', /is a file, not a folder/);
    expectKindError(() => writeWorkspaceFile(ws, 'file.txt/child.txt', 'x'), 'write under a file', /"file.txt" is a file, not a folder/);
  });
});
