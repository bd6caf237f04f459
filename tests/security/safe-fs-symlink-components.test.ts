/**
 * Issue 13, items 1 and 2: the safe-open module refuses a symlink at every component of
 * a workspace path (first folder, middle folder, last folder, the file itself), whether
 * it points outside, inside the workspace, or nowhere (dangling), for every operation:
 * read, write (plain, exclusive, atomic), edit, list, walk, folder creation. Nothing
 * outside is read or changed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  WorkspaceEscapeError,
  listWorkspaceDir,
  readWorkspaceFile,
  walkWorkspaceFiles,
  withWorkspaceFile,
  workspaceEntryKind,
  writeWorkspaceFile,
} from '../../src-main/core/workspace/safeFs';
import { tree, workspaceWithOutside } from './support/workspaces';

const PARTS = ['a', 'b', 'c', 'file.txt'];

/** `a/b/c/file.txt` for real, then component `index` replaced by a symlink to `target(outside, ws)`. */
function planted(index: number, target: (outside: string, ws: string) => string) {
  const { ws, outside } = workspaceWithOutside();
  fs.mkdirSync(path.join(ws, 'a', 'b', 'c'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'a', 'b', 'c', 'file.txt'), 'workspace');
  fs.mkdirSync(path.join(ws, 'inside', 'b', 'c'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'inside', 'b', 'c', 'file.txt'), 'inside');
  const at = path.join(ws, ...PARTS.slice(0, index + 1));
  fs.rmSync(at, { recursive: true });
  fs.symlinkSync(target(outside, ws), at);
  return { ws, outside, before: tree(outside) };
}

const TARGETS: [string, (outside: string, ws: string) => string][] = [
  ['outside the workspace', (outside) => outside],
  ['inside the workspace', (_o, ws) => path.join(ws, 'inside')],
  ['nowhere (dangling)', (outside) => path.join(outside, 'missing')],
];

describe('safeFs: a symlink at any component is refused', () => {
  for (let index = 0; index < PARTS.length; index++) {
    for (const [label, target] of TARGETS) {
      it(`component ${index + 1} (${PARTS[index]}) -> ${label}`, () => {
        // For the last component the target is a file; for folders, the matching folder.
        const pick = (outside: string, ws: string) => {
          const base = target(outside, ws);
          return index === 0 ? base : path.join(base, ...PARTS.slice(1, index + 1));
        };
        const { ws, outside, before } = planted(index, pick);
        const file = PARTS.join('/');
        const ops: [string, () => unknown][] = [
          ['read', () => readWorkspaceFile(ws, file)],
          ['readwrite', () => withWorkspaceFile(ws, file, 'readwrite', () => 1)],
          ['write', () => writeWorkspaceFile(ws, file, 'attacker')],
          ['write exclusive', () => writeWorkspaceFile(ws, file, 'attacker', { exclusive: true })],
          ['write beside', () => writeWorkspaceFile(ws, `${PARTS.slice(0, Math.min(index + 1, 3)).join('/')}/new.txt`, 'attacker')],
          ['kind', () => workspaceEntryKind(ws, file)],
        ];
        if (index < 3) {
          const folder = PARTS.slice(0, index + 1).join('/');
          ops.push(['list', () => listWorkspaceDir(ws, folder)], ['walk', () => walkWorkspaceFiles(ws, folder, 100)]);
        }
        // Last, because at the last component it changes the tree (see below).
        ops.push(['write atomic', () => writeWorkspaceFile(ws, file, 'attacker', { atomic: true })]);
        for (const [name, op] of ops) {
          let error: unknown;
          try {
            op();
          } catch (e) {
            error = e;
          }
          // Exclusive creation over a symlink fails as "exists" (EEXIST); a file beside it is fine.
          // The atomic write renames a new file over the name: the symlink entry itself is replaced, never followed.
          if (index === 3 && name === 'write atomic') {
            expect(error, name).toBeUndefined();
            expect(fs.lstatSync(path.join(ws, file)).isFile(), name).toBe(true);
            continue;
          }
          if (index === 3 && name === 'write beside') {
            expect(error, name).toBeUndefined();
            continue;
          }
          if (name === 'write exclusive' && index === 3) {
            expect((error as NodeJS.ErrnoException)?.code, name).toBe('EEXIST');
            continue;
          }
          expect(error, name).toBeInstanceOf(WorkspaceEscapeError);
          expect((error as Error).message, name).toMatch(/symlink/);
        }
        expect(tree(outside)).toEqual(before);
        expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('HOST SECRET');
        expect(fs.readFileSync(path.join(outside, 'b', 'c', 'file.txt'), 'utf8')).toBe('HOST SECRET');
        expect(fs.existsSync(path.join(outside, 'missing'))).toBe(false);
      });
    }
  }

  it('a walk of the workspace lists symlinks as nothing and never enters them', () => {
    const { ws, outside } = workspaceWithOutside();
    fs.mkdirSync(path.join(ws, 'real'));
    fs.writeFileSync(path.join(ws, 'real', 'x.txt'), 'x');
    fs.symlinkSync(outside, path.join(ws, 'out'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'secret.txt'));
    expect(walkWorkspaceFiles(ws, '.', 100)).toEqual(['real/x.txt']);
    expect(listWorkspaceDir(ws, '.').entries).toEqual([
      { name: 'out', kind: 'link', size: null },
      { name: 'real', kind: 'dir', size: null },
      { name: 'secret.txt', kind: 'link', size: null },
    ]);
  });
});
