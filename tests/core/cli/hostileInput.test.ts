import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clipEchoedInput } from '../../../src-main/cli/errorLine';
import { runCliIn } from '../../support/cliInProcess';

// What a newcomer meets with a fresh data root, no keys and hostile input: every refusal is
// one line on stderr naming the problem and the fix, with a non-zero exit, also under --json.

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-cli-hostile-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[]) => runCliIn(path.join(dir, 'data'), args);
const HUGE = 'a'.repeat(100_000);

/** One line on stderr, nothing on stdout, the given exit. */
function expectOneLineError(run: { code: number; out: string; err: string }, code: number, text: RegExp) {
  expect(run.code).toBe(code);
  expect(run.out).toBe('');
  expect(run.err.split('\n')).toHaveLength(2);
  expect(run.err).toMatch(text);
}

describe('an argument of 100,000 characters', () => {
  it('is echoed clipped with its length, so each error stays a short line that still ends with the fix', async () => {
    const cases: [string[], number, RegExp][] = [
      [[HUGE], 2, /^Unknown command "a{64}…\[100,000 characters\]"\. Run openai4s --help/],
      [['sessions', `--${HUGE}`], 2, /^openai4s sessions: unknown option --a{62}…\[100,002 characters\]\. See openai4s sessions --help\.$/m],
      [['kernel', 'status', '--session', HUGE], 2, /; got "a{64}…\[100,000 characters\]"\. See openai4s kernel --help\.$/m],
      [['memory', 'forget', HUGE], 1, /^openai4s memory: No memory "a{64}…\[100,000 characters\]"/],
      [['skills', 'show', HUGE], 1, /^openai4s skills: No skill named "a{64}…\[100,000 characters\]"; openai4s skills lists/],
      [['verify', path.join(dir, HUGE)], 1, /^openai4s verify: .{64}…\[100,\d{3} characters\] cannot be read \(ENAMETOOLONG\); check the path and its permissions\.$/m],
    ];
    for (const [args, code, text] of cases) {
      const run = await cli(args);
      expectOneLineError(run, code, text);
      expect(run.err.length).toBeLessThan(400);
    }
  });

  it('leaves short lines and lines with newlines (tracebacks, diffs) whole', () => {
    const traceback = `Traceback (most recent call last):\n  File "<cell-1>", line 1\n    ${HUGE}\nNameError: name is not defined`;
    expect(clipEchoedInput(traceback)).toBe(traceback);
    expect(clipEchoedInput(`No skill named "${'b'.repeat(256)}".`)).toBe(`No skill named "${'b'.repeat(256)}".`);
    expect(clipEchoedInput(`x "${'b c '.repeat(200)}" y`)).toBe(`x "${'b c '.repeat(200).slice(0, 64)}…[800 characters]" y`);
  });
});

describe('mistakes a newcomer makes', () => {
  it('demo --stream with a bad value is refused in one line, before the demo starts and announces itself', async () => {
    expectOneLineError(await cli(['demo', '--stream', 'html']), 2, /^openai4s demo: --stream must be ui or text, not "html"\. See openai4s demo --help\.$/m);
  });

  it('an option value that starts with "-" is refused in one line that shows how to give it (node said it in three)', async () => {
    expectOneLineError(await cli(['science', 'uniprot', 'insulin', '--limit', '-5']), 2, /^openai4s science: --limit needs a value; one that starts with "-" is written --limit=-VALUE\. See openai4s science --help\.$/m);
  });

  it('compute status --session with a session that does not exist says so (it listed "no compute job"), also under --json', async () => {
    for (const json of [[], ['--json']]) {
      expectOneLineError(await cli(['compute', 'status', '--session', 'nosuch', ...json]), 1, /^openai4s compute: No session "nosuch"\. List the sessions with `openai4s sessions`\.$/m);
    }
  });

  it('skills show and enable of an unknown skill name the CLI’s list, not the app’s Skills page', async () => {
    for (const action of ['show', 'enable', 'disable']) {
      expectOneLineError(await cli(['skills', action, 'nosuch', '--json']), 1, /^openai4s skills: No skill named "nosuch"; openai4s skills lists the installed skills\.$/m);
    }
  });

  it('verify and reproduce --json of a missing file: the report on stdout, the reason on stderr, exit 1', async () => {
    const missing = path.join(dir, 'nope.zip');
    const verified = await cli(['verify', missing, '--json']);
    expect(verified.code).toBe(1);
    expect(JSON.parse(verified.out)).toMatchObject({ ok: false, problems: [{ kind: 'refused', message: `${missing} does not exist.` }] });
    expect(verified.err).toBe(`openai4s verify: ${missing} does not exist.\n`);
    const reproduced = await cli(['reproduce', missing, '--json']);
    expect(reproduced.code).toBe(1);
    expect(JSON.parse(reproduced.out)).toMatchObject({ ok: false, refused: `${missing} does not exist.` });
    expect(reproduced.err).toBe(`openai4s reproduce: ${missing} does not exist (details in the JSON report).\n`);
  });

  it('verify --json of a file that is not a zip says why on stderr too', async () => {
    const junk = path.join(dir, 'junk.zip');
    fs.writeFileSync(junk, Buffer.from([0xff, 0xfe, 0x00, 0x41]));
    const run = await cli(['verify', junk, '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.out)).toMatchObject({ ok: false });
    expect(run.err).toMatch(/^openai4s verify: .*not a readable zip.*\n$/);
  });
});

describe('kernel exec - with code that is not UTF-8', () => {
  it('refuses it in one line and runs nothing (it ran the code with U+FFFD in place of each byte)', () => {
    if (!fs.existsSync(path.resolve('out/main/cli.js'))) return expect.fail('run `npm run build` first: out/main/cli.js is missing');
    // Latin-1 "café": 0xE9 alone is no UTF-8.
    const run = spawnSync(process.execPath, ['bin/openai4s.cjs', 'kernel', 'exec', '-'], {
      input: Buffer.from('open("ran", "w").write("caf\xe9")\n', 'latin1'),
      env: { ...process.env, OPENAI4S_DATA_DIR: path.join(dir, 'latin1'), OPENAI4S_KERNEL_PREWARM: '0' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('openai4s kernel: standard input is not UTF-8 text; convert the code first (for example iconv -f latin1 -t utf-8 file.py).\n');
    expect(fs.existsSync(path.join(dir, 'latin1', 'workspaces', 'cli', 'ran'))).toBe(false);
  });
});

describe('doctor where no Python kernel can run', () => {
  it('exits 1 and says why on stderr in one line, with and without --json (stdout keeps the report)', async () => {
    const env = { ...process.env, OPENAI4S_PYTHON: path.join(dir, 'no-python') };
    for (const json of [[], ['--json']]) {
      const run = await runCliIn(path.join(dir, 'doctor'), ['doctor', ...json], env);
      expect(run.code).toBe(1);
      expect(run.err).toMatch(/^openai4s doctor: no Python kernel can run here: .*OPENAI4S_PYTHON.*\n$/);
      if (json.length) expect(JSON.parse(run.out)).toMatchObject({ python: { version: null } });
      else expect(run.out).toMatch(/^-- python/m);
    }
  }, 60_000);
});

describe('mcp servers --json with a broken mcp.json', () => {
  it('keeps the report on stdout and names the problem on stderr too, exit 1', async () => {
    const data = path.join(dir, 'mcp');
    fs.mkdirSync(data, { recursive: true });
    fs.writeFileSync(path.join(data, 'mcp.json'), '{ not json');
    const run = await runCliIn(data, ['mcp', 'servers', '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.out)).toMatchObject({ servers: [], errors: [expect.stringContaining('is not valid JSON')] });
    expect(run.err).toMatch(/^problem: .*mcp\.json is not valid JSON .*; fix it or remove it\.\n$/);
  });
});
