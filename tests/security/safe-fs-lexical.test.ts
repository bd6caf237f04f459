/**
 * Issues 13, items 1 and 2: before touching the file system, the safe-open module
 * refuses paths that name something outside the workspace by their spelling alone, with
 * the clear messages the file tools always gave: `..` segments (with `/` or `\`),
 * absolute paths (POSIX and Windows drive letters), NUL characters.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkspaceEscapeError, readWorkspaceFile, workspaceRelative, writeWorkspaceFile } from '../../src-main/core/workspace/safeFs';
import { tree, workspaceWithOutside } from './support/workspaces';

describe('safeFs: lexical refusals', () => {
  it('refuses .., absolute paths, drive letters, NUL, and treats backslashes as separators', () => {
    const { ws, outside } = workspaceWithOutside();
    const cases: [string, RegExp][] = [
      ['..', /".." segments are not allowed/],
      ['../outside/secret.txt', /".." segments are not allowed/],
      ['a/../../outside/secret.txt', /".." segments are not allowed/],
      ['..\\outside\\secret.txt', /".." segments are not allowed/],
      ['a\\..\\..\\outside', /".." segments are not allowed/],
      [path.join(outside, 'secret.txt'), /absolute paths are not allowed/],
      ['/etc/passwd', /absolute paths are not allowed/],
      ['\\etc\\passwd', /absolute paths are not allowed/],
      ['C:\\Windows\\win.ini', /absolute paths are not allowed/],
      ['c:relative', /absolute paths are not allowed/],
      ['ok.txt\0../../x', /NUL character/],
    ];
    for (const [p, why] of cases) {
      for (const op of [() => readWorkspaceFile(ws, p), () => writeWorkspaceFile(ws, p, 'x')]) {
        let error: unknown;
        try {
          op();
        } catch (e) {
          error = e;
        }
        expect(error, p).toBeInstanceOf(WorkspaceEscapeError);
        expect((error as Error).message, p).toMatch(why);
        expect((error as Error).message, p).toMatch(/^Refused path ".*": .*Paths are relative to the session workspace/);
      }
    }
    expect(tree(ws)).toEqual([]);
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('HOST SECRET');
  });

  it('normalises what stays inside', () => {
    expect(workspaceRelative('')).toBe('.');
    expect(workspaceRelative('./a//b/./c/')).toBe('a/b/c');
    expect(workspaceRelative('a\\b')).toBe('a/b');
    expect(workspaceRelative('...')).toBe('...');
  });
});
