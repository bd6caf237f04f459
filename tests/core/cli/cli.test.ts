import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../src-main/cli/main';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-cli-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) }, {
    ...process.env,
    OPENAI4S_DATA_DIR: dir,
    ...env,
  });
  return { code, out, err };
}

describe('openai4s CLI', () => {
  it('lists its commands with --help', async () => {
    const { code, out } = await cli(['--help']);
    expect(code).toBe(0);
    expect(out).toMatch(/Usage: openai4s <command>/);
    expect(out).toMatch(/^\s+doctor\s+Check interpreters/m);
  });

  it('prints the doctor report as one JSON object, with the data dir and no key', async () => {
    const { code, out } = await cli(['doctor', '--json'], { OPENAI4S_ARK_API_KEY: 'ark-secret-value' });
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report).toMatchObject({ dataDir: dir, sandbox: { backend: 'bwrap', available: true } });
    expect(Object.keys(report)).toEqual(expect.arrayContaining(['version', 'dataDir', 'node', 'python', 'r', 'sandbox', 'providers']));
    expect(out).not.toContain('ark-secret-value');
  });

  it('prints a readable doctor report', async () => {
    const { code, out } = await cli(['doctor']);
    expect(code).toBe(0);
    expect(out).toContain(`data dir   ${dir}`);
    expect(out).toMatch(/python\s+\/usr\/bin\/python3/);
  });

  it('exits 1 when no Python kernel can run here, and says why in the report', async () => {
    const { code, out } = await cli(['doctor'], { OPENAI4S_PYTHON: '/nonexistent/python3' });
    expect(code).toBe(1);
    expect(out).toMatch(/^-- python/m);
    const json = await cli(['doctor', '--json'], { OPENAI4S_PYTHON: '/nonexistent/python3' });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out).python.reason).toBeTruthy();
  });

  it('refuses an unknown command or option in one line that says where the usage is, exit code 2', async () => {
    const unknown = await cli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/Unknown command "frobnicate".*--help/);
    const badOption = await cli(['doctor', '--jsn']);
    expect(badOption.code).toBe(2);
    expect(badOption.err.trim()).toBe('openai4s doctor: unknown option --jsn. See openai4s doctor --help.');
    const missingValue = await cli(['kernel', 'exec', '--lang']);
    expect(missingValue.code).toBe(2);
    expect(missingValue.err.trim()).toMatch(/^openai4s kernel: Option '-l, --lang <value>' argument missing\. See openai4s kernel --help\.$/);
    // A mistyped session id is an error, not an empty list.
    const artifacts = await cli(['artifacts', 'nope', '--json']);
    expect(artifacts.code).toBe(1);
    expect(artifacts.err.trim()).toBe('openai4s artifacts: No session "nope". List the sessions with `openai4s sessions`.');
  });

  it('fails with a clear message when configuration is invalid', async () => {
    const { code, err } = await cli(['doctor'], { OPENAI4S_SANDBOX: 'sometimes' });
    expect(code).toBe(1);
    expect(err).toMatch(/OPENAI4S_SANDBOX=sometimes is not a sandbox mode/);
  });
});
