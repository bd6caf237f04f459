import fs from 'node:fs';
import type { KernelCellResult, KernelLanguage, KernelSandboxState, KernelStatus } from '../../../src-preload/contract/kernel';
import type { Core } from '../../core/core';
import { describeSandbox } from '../../core/kernel/sandbox';
import { CellNotStartedError } from '../../core/kernel/supervisor';
import { errorMessage } from '../../core/shared/errorMessage';
import type { CliCommand, CliIO } from '../command';
import { sessionOptionProblem, usageError } from '../sessionArg';
import { stopCellOnSignals } from './cellSignals';
import { cellStreamPrinter } from './cellStream';

const USAGE = [
  'openai4s kernel exec --lang python|r [--session ID] [--timeout MS] [--json] "<code>" | -',
  '       openai4s kernel status [--session ID] [--json]',
  '',
  'exec runs one cell in the session\'s sandboxed kernel (default session "cli", workspace',
  '<data dir>/workspaces/cli), prints its stdout and stderr as the cell writes them, then its',
  'figures and error, and exits 1 if the cell raised. Ctrl-C interrupts the cell, as in Jupyter:',
  'it ends with KeyboardInterrupt, what it printed stays, and the exit code is 130; a second',
  'Ctrl-C stops the kernel and exits at once. SIGTERM stops the cell and its kernel at once and',
  'exits 143. --json prints only the result object, at the end. Code "-" is read from standard input.',
].join('\n');

/**
 * The cell's code from standard input, or null when it is not UTF-8: decoded leniently, a
 * Latin-1 "é" became U+FFFD and the cell ran with other text than the file held.
 */
function readCodeFromStdin(): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(fs.readFileSync(0));
  } catch (error) {
    if (error instanceof TypeError) return null;
    throw error;
  }
}

/** A cell's error value as one line of at most 300 characters, without its closing full stop. */
function oneLine(text: string): string {
  const line = text.replace(/\s*\n\s*/g, ' ').replace(/\.?\s*$/, '');
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** What a cell gave besides its stdout and stderr (streamed as it ran). */
function printEnd(r: KernelCellResult, io: CliIO): void {
  for (const d of r.displays) io.out(d.path ? `[figure saved: ${d.path} in the workspace]` : (d.data['text/plain'] ?? ''));
  if (r.error) io.err(r.error.traceback || `${r.error.ename}: ${r.error.evalue}`);
  if (r.died) io.err(r.died.lost);
  if (r.timeLimit) io.err(r.timeLimit.message);
}

/** One line per language; a kernel lives as long as the openai4s process that started it. */
function statusText(status: KernelStatus): string {
  const lines = status.slots.map((s) => {
    const parts = [s.language.padEnd(7), s.state === 'none' ? 'no kernel' : s.state];
    if (s.generation) parts.push(`generation ${s.generation.slice(0, 8)}`);
    if (s.sandbox) parts.push(describeSandbox(s.sandbox));
    if (s.state !== 'none') parts.push(`${s.cells} cell${s.cells === 1 ? '' : 's'}`);
    if (s.reason) parts.push(s.reason);
    return parts.join('  ');
  });
  if (status.slots.every((s) => s.state === 'none')) {
    lines.push('(A kernel lives as long as the command that started it: kernel exec starts one per call; the app keeps one per session.)');
  }
  return [`session ${status.sessionId}`, ...lines].join('\n');
}

export const kernelCommand: CliCommand = {
  name: 'kernel',
  summary: 'Run a Python or R cell in a sandboxed kernel (exec), or show kernel status',
  usage: USAGE,
  options: {
    lang: { type: 'string', short: 'l' },
    session: { type: 'string', short: 's' },
    timeout: { type: 'string' },
    json: { type: 'boolean' },
  },
  needsCore: true,
  async run({ core, values, positionals, io }) {
    const [sub, ...rest] = positionals;
    const sessionProblem = sessionOptionProblem(values.session);
    if (sessionProblem) return usageError(io, 'kernel')(sessionProblem);
    const sessionId = typeof values.session === 'string' ? values.session : 'cli';
    if (sub === 'status') {
      if (rest.length) return usageError(io, 'kernel')(`status takes no arguments (got "${rest[0]}").`);
      const status = core!.kernels.status(sessionId);
      io.out(values.json ? JSON.stringify(status, null, 2) : statusText(status));
      return 0;
    }
    if (sub !== 'exec') {
      return usageError(io, 'kernel')(sub ? `unknown subcommand "${sub}"; use exec or status.` : 'give a subcommand: exec or status.');
    }
    const lang = values.lang ?? 'python';
    if (lang !== 'python' && lang !== 'r') {
      return usageError(io, 'kernel')(`--lang ${String(lang)}: the kernel languages are python and r.`);
    }
    if (rest.length !== 1) {
      return usageError(io, 'kernel')('exec takes exactly one code argument (quote it, or pass - to read standard input).');
    }
    const code = rest[0] === '-' ? readCodeFromStdin() : rest[0]!;
    if (code === null) {
      io.err('openai4s kernel: standard input is not UTF-8 text; convert the code first (for example iconv -f latin1 -t utf-8 file.py).');
      return 2;
    }
    const timeoutMs = typeof values.timeout === 'string' ? Number(values.timeout) : undefined;
    if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
      io.err(`--timeout ${String(values.timeout)}: give a whole number of milliseconds.`);
      return 2;
    }
    const limit = timeoutMs ? { timeoutMs, timeLimitHint: 'Give it more with --timeout MS.' } : {};
    return await execCell(core!, { sessionId, lang: lang as KernelLanguage, code, limit, json: values.json === true }, io);
  },
};

/**
 * Runs the cell: its output streams as it comes (not under --json), Ctrl-C interrupts it
 * (stopCellOnSignals), and the end prints what the output did not (displays, the error,
 * a death, the time limit).
 */
async function execCell(
  core: Core,
  cell: { sessionId: string; lang: KernelLanguage; code: string; limit: { timeoutMs?: number; timeLimitHint?: string }; json: boolean },
  io: CliIO,
): Promise<number> {
  const { sessionId, lang } = cell;
  const stopper = stopCellOnSignals({
    interrupt: () => void core.kernels.interrupt(sessionId, lang),
    close: () => core.close(),
    say: (text) => io.err(text),
    exit: (code) => process.exit(code),
  });
  const printer = cell.json ? null : cellStreamPrinter(io);
  // A kernel without its sandbox is said before its output, as it starts.
  let sandboxSaid = false;
  const sayGap = (sandbox: KernelSandboxState) => {
    if (sandboxSaid || cell.json) return;
    sandboxSaid = true;
    if (sandbox.state !== 'sandboxed') io.err(`[kernel sandbox ${describeSandbox(sandbox)}]`);
  };
  const unsubscribe = core.events.on('kernel.lifecycle', (e) => {
    if (e.kind === 'started' && e.sessionId === sessionId && e.language === lang && e.sandbox) sayGap(e.sandbox);
  });
  try {
    // The pre-execution review (issue 27): a flagged cell runs only once approved (headless: OPENAI4S_UNATTENDED_APPROVAL=allow).
    let review: { record(): Promise<void> };
    try {
      review = await core.safety.reviewUserCell(sessionId, lang, cell.code);
    } catch (error) {
      io.err(errorMessage(error));
      return 1;
    }
    // A SIGTERM during the review is stopping everything and exits by itself.
    await stopper.held();
    if (stopper.exitCode !== null) {
      await review.record();
      io.err('Stopped before the cell started; none of it ran.');
      return stopper.exitCode;
    }
    const record = () => {
      stopper.markSent();
      void review.record();
    };
    let result: KernelCellResult;
    try {
      result = await core.kernels
        .execute(sessionId, lang, cell.code, {
          ...cell.limit,
          signal: stopper.signal,
          onSent: record,
          ...(printer ? { onOutput: printer.push } : {}),
        })
        .finally(() => review.record());
    } catch (error) {
      await stopper.held();
      if (error instanceof CellNotStartedError && stopper.exitCode !== null) {
        io.err(error.message);
        return stopper.exitCode;
      }
      throw error;
    }
    await stopper.held();
    if (cell.json) {
      io.out(JSON.stringify(result, null, 2));
      // The result is for the program reading stdout; the person at the terminal still sees why it failed.
      const failure = result.error ? `the cell raised ${result.error.ename}: ${result.error.evalue}` : result.died ? result.died.lost : result.timeLimit?.message;
      if (failure) io.err(`openai4s kernel: ${oneLine(failure)} (the whole result is the JSON on stdout).`);
    } else {
      printer!.finish(result);
      sayGap(result.sandbox);
      printEnd(result, io);
    }
    return stopper.exitCode ?? (result.status === 'ok' ? 0 : 1);
  } finally {
    unsubscribe();
    stopper.dispose();
  }
}
