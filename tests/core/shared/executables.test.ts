import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findOnPath, isExecutableFile } from '../../../src-main/core/shared/executables';

describe.skipIf(process.platform === 'win32')('executables', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-exe-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const write = (rel: string, mode: number) => {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '#!/bin/sh\n', { mode });
    return file;
  };

  it('counts only regular files this process may run', () => {
    expect(isExecutableFile(write('tool', 0o755))).toBe(true);
    expect(isExecutableFile(write('data', 0o644))).toBe(false);
    expect(isExecutableFile(path.join(dir, 'missing'))).toBe(false);
    expect(isExecutableFile(dir)).toBe(false);
  });

  it('walks PATH in order, skipping what is not runnable, and searches the fallback only without PATH', () => {
    write('a/tool', 0o644);
    const runnable = write('b/tool', 0o755);
    write('c/tool', 0o755);
    const a = path.join(dir, 'a');
    const b = path.join(dir, 'b');
    const c = path.join(dir, 'c');
    expect(findOnPath('tool', { PATH: [a, '', b, c].join(path.delimiter) })).toBe(runnable);
    expect(findOnPath('tool', { PATH: a })).toBeNull();
    expect(findOnPath('tool', {}, c)).toBe(path.join(c, 'tool'));
    expect(findOnPath('tool', {})).toBeNull();
    expect(findOnPath('tool', { PATH: a }, c)).toBeNull();
  });
});
