import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseInterpreter, readKernelEnv, type KernelEnvDeclaration } from '../../../src-main/core/config/kernelEnvs';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-interp-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function exe(name: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return file;
}

const decl = (linux: string[]): KernelEnvDeclaration => ({
  id: 't',
  language: 'python',
  description: '',
  interpreters: { linux },
  packages: [],
});

describe('kernel interpreter choice', () => {
  it('reads the shipped declarations, with /usr/bin/python3 first on Linux', () => {
    const py = readKernelEnv('python-default');
    expect(py.interpreters.linux?.[0]).toBe('/usr/bin/python3');
    expect(py.packages).toEqual(expect.arrayContaining(['numpy', 'pandas', 'matplotlib']));
    expect(readKernelEnv('r-default').packages).toContain('jsonlite');
    expect(() => readKernelEnv('nope')).toThrow(/Cannot read the kernel environment .*nope\.json/);
  });

  it('prefers the override variable, then the declared interpreters, then PATH', () => {
    const declared = exe('declared-python');
    const onPath = exe('python3');
    const override = exe('override-python');
    const env = { PATH: dir };
    expect(chooseInterpreter(decl([declared]), 'X_PY', 'python3', { ...env, X_PY: override }, 'linux')).toEqual({ path: override, source: 'env' });
    expect(chooseInterpreter(decl(['/nonexistent/python', declared]), 'X_PY', 'python3', env, 'linux')).toEqual({ path: declared, source: 'declared' });
    expect(chooseInterpreter(decl(['/nonexistent/python']), 'X_PY', 'python3', env, 'linux')).toEqual({ path: onPath, source: 'discovered' });
  });

  it('explains a wrong override and a missing interpreter, naming the variable', () => {
    const bad = chooseInterpreter(decl([]), 'X_PY', 'python3', { PATH: dir, X_PY: '/no/such/python' }, 'linux');
    expect(bad).toMatchObject({ path: null, source: 'env' });
    expect(bad.reason).toMatch(/X_PY=\/no\/such\/python is not an executable file/);
    const none = chooseInterpreter(decl(['/nope']), 'X_PY', 'python3', { PATH: dir }, 'linux');
    expect(none).toMatchObject({ path: null, source: 'none' });
    expect(none.reason).toMatch(/No python3 found .*\/nope.*set X_PY/);
  });
});
