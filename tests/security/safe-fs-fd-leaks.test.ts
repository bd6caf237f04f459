/**
 * Issue 13, item 2: the safe-open module holds a descriptor per path component; every
 * one is closed again, after success and after every kind of refusal (symlink, missing,
 * wrong kind, protected name, exists), so a cell provoking refusals in a loop cannot
 * exhaust the host's descriptors. The descriptors kept for repeated reads of a file
 * (heldFiles.ts) are bounded and counted apart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTextFileTool } from '../../src-main/core/capabilities/tools/fsTools';
import { heldFileCount, releaseHeldFiles } from '../../src-main/core/workspace/heldFiles';
import { contentSearchTool, globFilesTool } from '../../src-main/core/capabilities/tools/searchTools';
import {
  listWorkspaceDir,
  readWorkspaceFile,
  walkWorkspaceFiles,
  withWorkspaceFile,
  workspaceEntryKind,
  writeWorkspaceFile,
} from '../../src-main/core/workspace/safeFs';
import { openFdCount } from './support/swapper';
import { runTool } from './support/tools';
import { workspaceWithOutside } from './support/workspaces';

describe('safeFs: no descriptor leaks', () => {
  it('open descriptors are the same before and after thousands of operations and refusals', async () => {
    const { ws, outside } = workspaceWithOutside();
    fs.mkdirSync(path.join(ws, 'a', 'b'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'a', 'b', 'f.txt'), 'line one\nline two\n');
    fs.writeFileSync(path.join(ws, 'big.txt'), `${'y'.repeat(99)}\n`.repeat(45_000));
    fs.symlinkSync(outside, path.join(ws, 'a', 'link'));
    fs.mkdirSync(path.join(ws, 'dir'));
    const ops: (() => unknown)[] = [
      () => readWorkspaceFile(ws, 'a/b/f.txt'),
      () => writeWorkspaceFile(ws, 'a/b/new/deeper/g.txt', 'x'),
      () => writeWorkspaceFile(ws, 'a/b/h.txt', 'x', { atomic: true }),
      () => writeWorkspaceFile(ws, 'a/b/f.txt', 'line one\nline two\n', { exclusive: true }), // EEXIST
      () => withWorkspaceFile(ws, 'a/b/f.txt', 'readwrite', () => {
        throw new Error('the callback failed');
      }),
      () => listWorkspaceDir(ws, 'a'),
      () => walkWorkspaceFiles(ws, '.', 100),
      () => workspaceEntryKind(ws, 'a/b'),
      () => readWorkspaceFile(ws, 'a/link/secret.txt'), // symlink
      () => writeWorkspaceFile(ws, 'a/link/x.txt', 'x'), // symlink
      () => readWorkspaceFile(ws, 'a/b/missing.txt'), // missing
      () => readWorkspaceFile(ws, 'dir'), // wrong kind
      () => listWorkspaceDir(ws, 'a/b/f.txt'), // wrong kind
      () => writeWorkspaceFile(ws, 'a/.git/config', 'x'), // protected
      () => readWorkspaceFile(ws, '../outside/secret.txt'), // lexical
    ];
    const tools = [
      () => runTool(readTextFileTool, { path: 'big.txt', start_line: 10, max_lines: 2 }, ws),
      () => runTool(readTextFileTool, { path: 'a/b/f.txt' }, ws),
      () => runTool(globFilesTool, { pattern: '**/*.txt' }, ws),
      () => runTool(contentSearchTool, { pattern: 'two' }, ws),
    ];
    // Warm up once (lazy module state), then count.
    for (const op of ops) {
      try {
        op();
      } catch {
        // refusals are part of the test
      }
    }
    releaseHeldFiles();
    const before = openFdCount();
    for (let round = 0; round < 200; round++) {
      for (const op of ops) {
        try {
          op();
        } catch {
          // refusals are part of the test
        }
      }
    }
    for (let round = 0; round < 20; round++) for (const t of tools) await t();
    // Only the file read whole keeps a descriptor for its next read (big.txt is read in ranges).
    expect(heldFileCount()).toBe(1);
    expect(openFdCount()).toBe(before + heldFileCount());
    releaseHeldFiles();
    expect(openFdCount()).toBe(before);
  });
});
