import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliIn } from '../../support/cliInProcess';

// Every command that takes a session id checks it the same way (src-main/cli/sessionArg.ts):
// exit 2, one stderr line naming the rule and where the usage is, nothing else done.

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-cli-session-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[]) => runCliIn(dir, args);

const BAD = '../etc';

describe('CLI session ids', () => {
  it.each([
    ['memory', ['memory', 'list', '--session', BAD]],
    ['env', ['env', 'list', '--session', BAD]],
    ['compute', ['compute', 'status', '--session', BAD]],
    ['science', ['science', 'uniprot', 'insulin', '--session', BAD]],
    ['kernel', ['kernel', 'status', '--session', BAD]],
  ])('%s refuses a bad --session on one line', async (command, args) => {
    const { code, out, err } = await cli(args);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toBe(`openai4s ${command}: --session takes a session id (1-128 letters, digits, "_" or "-"); got "${BAD}". See openai4s ${command} --help.\n`);
  });

  it.each([
    ['artifacts', ['artifacts', BAD]],
    ['bibliography', ['bibliography', 'a', 'b']],
    ['show', ['show']],
  ])('%s refuses anything but one well-formed session id on one line', async (command, args) => {
    const { code, err } = await cli(args);
    expect(code).toBe(2);
    expect(err).toBe(`openai4s ${command}: ${command} takes one session id (1-128 letters, digits, "_" or "-"); list them with \`openai4s sessions\`. See openai4s ${command} --help.\n`);
  });
});

describe('CLI usage errors', () => {
  it('closes a problem that has no full stop of its own, and never doubles one', async () => {
    const unknown = await cli(['sessions', '--colour']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe('openai4s sessions: unknown option --colour. See openai4s sessions --help.\n');
    const limit = await cli(['verify', 'x.zip', '--max-ratio', 'lots']);
    expect(limit.code).toBe(2);
    expect(limit.err).toMatch(/^openai4s verify: [^\n]*[^.]\. See openai4s verify --help\.\n$/);
  });
});
