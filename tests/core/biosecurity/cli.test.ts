import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../src-main/cli/main';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-biosec-cli-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  let out = '';
  let err = '';
  const base: NodeJS.ProcessEnv = { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0' };
  for (const name of ['OPENAI4S_UNATTENDED_APPROVAL', 'OPENAI4S_BIOSECURITY', 'OPENAI4S_CELL_REVIEW']) delete base[name];
  const exit = await runCli(args, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) }, { ...base, ...env });
  return { exit, out, err };
}

const CURL = 'import subprocess\nsubprocess.run(["curl", "-s", "https://example.org"])';

describe('the CLI and the safety layers (issue 27)', () => {
  it('kernel exec reviews the cell first: headless, a flagged cell is refused with its line and how to allow it', async () => {
    const r = await cli(['kernel', 'exec', '--lang', 'python', CURL]);
    expect(r.exit).toBe(1);
    expect(r.err).toContain('line 2: subprocess.run(["curl", "-s", "https://example.org"])');
    expect(r.err).toContain('OPENAI4S_UNATTENDED_APPROVAL=allow');
    expect(r.out).toBe('');
  }, 60_000);

  it('doctor prints both layers on, and off when turned off', async () => {
    const on = await cli(['doctor']);
    expect(on.out).toMatch(/^ok biosec {3}Biosecurity screening: on \(default\)$/m);
    expect(on.out).toMatch(/^ok review {3}Pre-execution review of cells: on \(default\)/m);
    const off = await cli(['doctor', '--json'], { OPENAI4S_BIOSECURITY: 'off' });
    expect(JSON.parse(off.out).safety.biosecurity).toMatchObject({ on: false, source: 'env', variable: 'OPENAI4S_BIOSECURITY' });
  }, 60_000);
});
