/**
 * Test support: the demo session (the insulin story replayed offline by `openai4s demo`,
 * no key) exported with the CLI and unzipped with the system's unzip, in a fresh data root.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { runCli } from '../../../src-main/cli/main';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** The CLI on the data root under `dir` (no prewarmed kernels, no provider keys). */
export async function demoCli(dir: string, args: string[]): Promise<CliRun> {
  let out = '';
  let err = '';
  const env = { ...process.env, OPENAI4S_DATA_DIR: path.join(dir, 'data'), OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_ARK_API_KEY: '', OPENAI4S_LLM_API_KEY: '' };
  const code = await runCli(args, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`), write: (t) => (out += t) }, env);
  return { code, out, err };
}

/** Replays the demo in a new temporary folder, exports its session to `story.zip` and unzips it to `unzipped/`. */
export async function exportDemoPackage(prefix: string): Promise<{ dir: string; zipFile: string; unzipped: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const demo = await demoCli(dir, ['demo']);
  expect(demo.code, demo.err).toBe(0);
  const [session] = JSON.parse((await demoCli(dir, ['sessions', '--json'])).out);
  const zipFile = path.join(dir, 'story.zip');
  const exported = await demoCli(dir, ['export', session.id, '-o', zipFile]);
  expect(exported.err).toBe('');
  const unzipped = path.join(dir, 'unzipped');
  execFileSync('/usr/bin/unzip', ['-q', zipFile, '-d', unzipped]);
  return { dir, zipFile, unzipped };
}
