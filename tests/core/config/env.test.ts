import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureDataDir, resolveDataDir } from '../../../src-main/core/config/dataDir';
import { loadConfigEnv } from '../../../src-main/core/config/env';
import { makeDirs } from '../../../src-main/core/shared/makeDirs';
import { resolveSandboxMode } from '../../../src-main/core/config/sandbox';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-env-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('data directory', () => {
  it('defaults to ~/.openai4s and honours OPENAI4S_DATA_DIR', () => {
    expect(resolveDataDir({})).toEqual({ path: path.join(os.homedir(), '.openai4s'), source: 'default' });
    expect(resolveDataDir({ OPENAI4S_DATA_DIR: dir })).toEqual({ path: dir, source: 'env' });
    expect(resolveDataDir({ OPENAI4S_DATA_DIR: '~/x' }).path).toBe(path.join(os.homedir(), 'x'));
    expect(resolveDataDir({ OPENAI4S_DATA_DIR: 'rel/dir' }).path).toBe(path.resolve('rel/dir'));
  });

  it('is created on first use, private to the user', () => {
    const target = path.join(dir, 'nested', 'root');
    ensureDataDir({ path: target, source: 'env' });
    const stat = fs.statSync(target);
    expect(stat.isDirectory()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o700);
  });

  it('names the variable to fix when the path is unusable', () => {
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, 'x');
    expect(() => ensureDataDir({ path: file, source: 'env' })).toThrow(/not a directory.*OPENAI4S_DATA_DIR/);
    expect(() => ensureDataDir({ path: path.join(file, 'sub'), source: 'env' })).toThrow(
      /Cannot create the data directory .*ENOTDIR.*OPENAI4S_DATA_DIR/,
    );
  });

  it.runIf(fs.existsSync('/proc/self'))('refuses a path under /proc with its reason instead of spinning for ever (Node’s recursive mkdir never returns there)', () => {
    expect(() => ensureDataDir({ path: '/proc/no-such-openai4s/data', source: 'env' })).toThrow(/Cannot create the data directory \/proc\/no-such-openai4s\/data \(ENOENT\)\. Set OPENAI4S_DATA_DIR to a writable directory\./);
  });

  it('creates every missing folder of a deep path, each private, and accepts one made meanwhile', () => {
    const deep = path.join(dir, 'a', 'b', 'c');
    makeDirs(path.join(dir, 'a'), 0o700);
    ensureDataDir({ path: deep, source: 'env' });
    expect(fs.statSync(deep).isDirectory()).toBe(true);
    expect(fs.statSync(path.join(dir, 'a', 'b')).mode & 0o777).toBe(0o700);
    expect(() => makeDirs(deep)).not.toThrow();
  });
});

describe('layered configuration environment', () => {
  it('fills gaps from the data root .env without overriding the real environment', () => {
    fs.writeFileSync(path.join(dir, '.env'), 'A=from-file\nB=from-file\nEMPTY_REAL=from-file\n');
    const env = loadConfigEnv(dir, { A: 'from-env', EMPTY_REAL: '' });
    expect(env.get('A')).toEqual({ value: 'from-env', source: 'env' });
    expect(env.get('B')).toEqual({ value: 'from-file', source: 'dotenv' });
    expect(env.get('EMPTY_REAL')).toEqual({ value: 'from-file', source: 'dotenv' });
    expect(env.get('MISSING')).toBeUndefined();
    expect(env.dotenvProblems).toEqual([]);
  });

  it('works without a .env and reports a malformed one without its values', () => {
    expect(loadConfigEnv(dir, {}).get('A')).toBeUndefined();
    fs.writeFileSync(path.join(dir, '.env'), 'SECRET="sk-live-123\n');
    const env = loadConfigEnv(dir, {});
    expect(env.dotenvProblems).toHaveLength(1);
    expect(env.dotenvProblems[0]).toMatch(/unterminated quote in SECRET/);
    expect(env.dotenvProblems.join()).not.toContain('sk-live-123');
  });
});

describe('sandbox mode', () => {
  it('defaults to auto, accepts the three modes, and refuses others by name', () => {
    const env = (v?: string) => loadConfigEnv(dir, v === undefined ? {} : { OPENAI4S_SANDBOX: v });
    expect(resolveSandboxMode(env())).toBe('auto');
    expect(resolveSandboxMode(env('ENFORCE'))).toBe('enforce');
    expect(resolveSandboxMode(env('off'))).toBe('off');
    expect(() => resolveSandboxMode(env('maybe'))).toThrow(/OPENAI4S_SANDBOX=maybe .*auto, enforce, off/);
  });
});
