import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../src-main/cli/main';
import { openLedger } from '../../../src-main/core/ledger/ledger';

// `openai4s kernel exec` against a real sandboxed kernel: output shows as the cell writes
// it, and Ctrl-C interrupts the cell the way Jupyter does (issue: the CLI printed nothing
// until the cell ended, and Ctrl-C killed it with the cell's output lost).

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-kexec-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function env(): NodeJS.ProcessEnv {
  return { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_SANDBOX: 'enforce' };
}

type Piece = { stream: 'stdout' | 'stderr'; text: string };

/** Runs the CLI in this process; `onPiece` hears every write as it comes. */
async function execInProcess(args: string[], onPiece: (seen: { stdout: string; stderr: string }) => void = () => {}) {
  const pieces: Piece[] = [];
  const text = (stream: Piece['stream']) => pieces.filter((p) => p.stream === stream).map((p) => p.text).join('');
  const keep = (stream: Piece['stream'], piece: string) => {
    pieces.push({ stream, text: piece });
    onPiece({ stdout: text('stdout'), stderr: text('stderr') });
  };
  const code = await runCli(
    ['kernel', 'exec', ...args],
    { out: (t) => keep('stdout', `${t}\n`), err: (t) => keep('stderr', `${t}\n`), write: (t) => keep('stdout', t), writeErr: (t) => keep('stderr', t) },
    env(),
  );
  return { code, stdout: text('stdout'), stderr: text('stderr') };
}

/** The built CLI as a child process, to send it real signals. */
function spawnCli(args: string[]) {
  const child = spawn(process.execPath, ['bin/openai4s.cjs', 'kernel', 'exec', ...args], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  const seen = { stdout: '', stderr: '' };
  const waiters: { check: () => boolean; resolve: () => void }[] = [];
  const wake = () => {
    for (const w of [...waiters]) {
      if (!w.check()) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  child.stdout.on('data', (d) => ((seen.stdout += d), wake()));
  child.stderr.on('data', (d) => ((seen.stderr += d), wake()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  /** Resolves once what the child printed satisfies `check` (rejects if it exits first). */
  const until = (check: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      if (check()) return resolve();
      waiters.push({ check, resolve });
      void exit.then(() => reject(new Error(`the CLI exited first; stdout: ${seen.stdout} stderr: ${seen.stderr}`)));
    });
  return { child, seen, exit, until };
}

const builtCli = () => fs.existsSync(path.resolve('out/main/cli.js'));

describe('openai4s kernel exec while the cell runs', () => {
  it('prints each line when the cell writes it, not at its end, and prints nothing twice', async () => {
    // The cell waits until the test has seen its first lines: they can only have come while it ran.
    let released = false;
    const r = await execInProcess(
      [
        '--lang',
        'python',
        'import os, sys, time\nprint("first line")\nprint("a warning", file=sys.stderr)\nend = time.time() + 20\nwhile not os.path.exists("go") and time.time() < end:\n    time.sleep(0.02)\nprint("second line" if os.path.exists("go") else "never released")\nprint("no newline", end="")',
      ],
      (seen) => {
        if (released || !seen.stdout.includes('first line\n') || !seen.stderr.includes('a warning\n')) return;
        released = true;
        fs.writeFileSync(path.join(dir, 'workspaces', 'cli', 'go'), '');
      },
    );
    expect(r.stderr).not.toMatch(/Traceback/);
    expect(r.code).toBe(0);
    expect(released).toBe(true);
    // The result repeats the whole output: none of it is printed again.
    expect(r.stdout).toBe('first line\nsecond line\nno newline\n');
    expect(r.stderr.split('a warning')).toHaveLength(2);
  }, 30_000);

  it('shows a stderr line written without its newline while the cell still runs, as it does for stdout', async () => {
    let released = false;
    const r = await execInProcess(
      [
        'import os, sys, time\nsys.stderr.write("loading 50%")\nsys.stderr.flush()\nend = time.time() + 20\nwhile not os.path.exists("go") and time.time() < end:\n    time.sleep(0.02)\nsys.stderr.write(" done" if os.path.exists("go") else " never released")',
      ],
      (seen) => {
        if (released || !seen.stderr.includes('loading 50%')) return;
        released = true;
        fs.writeFileSync(path.join(dir, 'workspaces', 'cli', 'go'), '');
      },
    );
    expect(r.code).toBe(0);
    expect(released).toBe(true);
    // The line is ended once, at the cell’s end; nothing is printed twice.
    expect(r.stderr).toBe('loading 50% done\n');
  }, 30_000);

  it('under --json prints only the one result object, at the end', async () => {
    const r = await execInProcess(['--json', 'print("a")\nimport time\ntime.sleep(0.3)\nprint("b")']);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as { stdout: string; status: string };
    expect(result).toMatchObject({ status: 'ok', stdout: 'a\nb\n' });
  }, 30_000);

  it('under --json a cell that raised still says why on stderr, in one line, and exits 1', async () => {
    const r = await execInProcess(['--json', 'print("partial")\nraise ValueError("bad\\nvalue.")']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'error', stdout: 'partial\n', error: { ename: 'ValueError' } });
    expect(r.stderr).toBe('openai4s kernel: the cell raised ValueError: bad value (the whole result is the JSON on stdout).\n');
  }, 30_000);

  it('Ctrl-C interrupts the cell: its output stays, KeyboardInterrupt is said, exit 130, and the data root is closed cleanly', async () => {
    if (!builtCli()) return expect.fail('run `npm run build` first: out/main/cli.js is missing');
    // A ledger session, so the kernel's generation is recorded and its end can be checked.
    const before = openLedger(path.join(dir, 'ledger.sqlite3'));
    const sessionId = before.createSession('ctrl-c').id;
    before.close();
    const cli = spawnCli(['--session', sessionId, 'import time\nprint("before the sleep")\ntime.sleep(30)\nprint("never")']);
    await cli.until(() => cli.seen.stdout.includes('before the sleep\n'));
    cli.child.kill('SIGINT');
    const exit = await cli.exit;
    expect(exit).toMatchObject({ code: 130, signal: null });
    expect(cli.seen.stdout).toBe('before the sleep\n');
    expect(cli.seen.stderr).toMatch(/File "<cell-1>", line 3[\s\S]*\nKeyboardInterrupt\n/);

    const ledger = openLedger(path.join(dir, 'ledger.sqlite3'));
    try {
      expect(ledger.db.pragma('integrity_check', { simple: true })).toBe('ok');
      // The kernel was shut down with the app, and said so; it did not die mid-cell.
      expect(ledger.kernels.listBySession(sessionId)).toMatchObject([{ language: 'python', endReason: 'app closed' }]);
      expect(ledger.kernels.openIds()).toEqual([]);
    } finally {
      ledger.close();
    }
  }, 30_000);

  it('a second Ctrl-C stops a cell that ignores the interrupt at once: exit 130 and the kernel is gone', async () => {
    if (!builtCli()) return expect.fail('run `npm run build` first: out/main/cli.js is missing');
    const ticks = path.join(dir, 'workspaces', 'cli', 'ticks');
    const cli = spawnCli([
      'import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nprint("ignoring Ctrl-C")\nwhile True:\n    open("ticks", "a").write(".")\n    time.sleep(0.05)',
    ]);
    await cli.until(() => cli.seen.stdout.includes('ignoring Ctrl-C\n'));
    cli.child.kill('SIGINT');
    await cli.until(() => cli.seen.stderr.includes('interrupting the cell'));
    cli.child.kill('SIGINT');
    // The kernel and the data root are closed (bounded at 3 s) and the CLI exits: the cell alone would never end.
    const exit = await cli.exit;
    expect(exit).toMatchObject({ code: 130, signal: null });
    expect(cli.seen.stdout).toBe('ignoring Ctrl-C\n');
    // No kernel writes on after the CLI is gone.
    const size = fs.statSync(ticks).size;
    await new Promise((r) => setTimeout(r, 400));
    expect(fs.statSync(ticks).size).toBe(size);
  }, 30_000);

  it('SIGTERM stops a cell that catches KeyboardInterrupt at once: one line says so, exit 143, and the kernel is closed cleanly', async () => {
    if (!builtCli()) return expect.fail('run `npm run build` first: out/main/cli.js is missing');
    const before = openLedger(path.join(dir, 'ledger.sqlite3'));
    const sessionId = before.createSession('sigterm').id;
    before.close();
    const ticks = path.join(dir, 'workspaces', sessionId, 'ticks');
    const cli = spawnCli([
      '--session',
      sessionId,
      'import time\nprint("catching interrupts")\nwhile True:\n    try:\n        open("ticks", "a").write(".")\n        time.sleep(0.05)\n    except KeyboardInterrupt:\n        pass',
    ]);
    await cli.until(() => cli.seen.stdout.includes('catching interrupts\n'));
    cli.child.kill('SIGTERM');
    // One signal is enough: the cell alone would never end.
    const exit = await cli.exit;
    expect(exit).toMatchObject({ code: 143, signal: null });
    expect(cli.seen.stdout).toBe('catching interrupts\n');
    // One line (how it ends depends on whether the first kernel-cache build let the data root close within 3 s).
    expect(cli.seen.stderr).toMatch(/^\[SIGTERM: the cell was stopped[ ;][^\n]*\]\n$/);
    const size = fs.statSync(ticks).size;
    await new Promise((r) => setTimeout(r, 400));
    expect(fs.statSync(ticks).size).toBe(size);

    const ledger = openLedger(path.join(dir, 'ledger.sqlite3'));
    try {
      expect(ledger.db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(ledger.kernels.listBySession(sessionId)).toMatchObject([{ language: 'python', endReason: 'app closed' }]);
      expect(ledger.kernels.openIds()).toEqual([]);
    } finally {
      ledger.close();
    }
  }, 30_000);

  it('SIGTERM after a Ctrl-C the cell ignored stops it at once with exit 143', async () => {
    if (!builtCli()) return expect.fail('run `npm run build` first: out/main/cli.js is missing');
    const cli = spawnCli(['import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nprint("ignoring Ctrl-C")\ntime.sleep(60)']);
    await cli.until(() => cli.seen.stdout.includes('ignoring Ctrl-C\n'));
    cli.child.kill('SIGINT');
    await cli.until(() => cli.seen.stderr.includes('interrupting the cell'));
    cli.child.kill('SIGTERM');
    const exit = await cli.exit;
    expect(exit).toMatchObject({ code: 143, signal: null });
    expect(cli.seen.stderr).toMatch(/\]\n\[SIGTERM: the cell was stopped[ ;][^\n]*\]\n$/);
  }, 30_000);
});
