import fs from 'node:fs';
import type { KernelCellResult, KernelLanguage } from '../../../src-preload/contract/kernel';
import { describeSandbox } from '../../core/kernel/sandbox';
import { errorMessage } from '../../core/shared/errorMessage';
import type { CliCommand, CliIO } from '../command';
import { sessionOptionProblem, usageError } from '../sessionArg';

const USAGE = [
  'openai4s kernel exec --lang python|r [--session ID] [--timeout MS] [--json] "<code>" | -',
  '       openai4s kernel status [--session ID]',
  '',
  'exec runs one cell in the session\'s sandboxed kernel (default session "cli", workspace',
  '<data dir>/workspaces/cli), prints its stdout and stderr, and exits 1 if the cell raised.',
  'Code "-" is read from standard input.',
].join('\n');

function printResult(r: KernelCellResult, io: CliIO): void {
  if (r.stdout) io.out(r.stdout);
  if (r.stderr) io.err(r.stderr);
  for (const d of r.displays) io.out(d.path ? `[figure saved: ${d.path} in the workspace]` : (d.data['text/plain'] ?? ''));
  if (r.error) io.err(r.error.traceback || `${r.error.ename}: ${r.error.evalue}`);
  if (r.died) io.err(r.died.lost);
  if (r.timeLimit) io.err(r.timeLimit.message);
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
      io.out(JSON.stringify(core!.kernels.status(sessionId), null, 2));
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
    const code = rest[0] === '-' ? fs.readFileSync(0, 'utf8') : rest[0]!;
    const timeoutMs = typeof values.timeout === 'string' ? Number(values.timeout) : undefined;
    if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
      io.err(`--timeout ${String(values.timeout)}: give a whole number of milliseconds.`);
      return 2;
    }
    const limit = timeoutMs ? { timeoutMs, timeLimitHint: 'Give it more with --timeout MS.' } : {};
    // The pre-execution review (issue 27): a flagged cell runs only once approved (headless: OPENAI4S_UNATTENDED_APPROVAL=allow).
    let review: { record(): Promise<void> };
    try {
      review = await core!.safety.reviewUserCell(sessionId, lang as KernelLanguage, code);
    } catch (error) {
      io.err(errorMessage(error));
      return 1;
    }
    const record = () => void review.record();
    const result = await core!.kernels.execute(sessionId, lang as KernelLanguage, code, { ...limit, onSent: record }).finally(() => review.record());
    if (values.json) io.out(JSON.stringify(result, null, 2));
    else {
      if (result.sandbox.state !== 'sandboxed') io.err(`[kernel sandbox ${describeSandbox(result.sandbox)}]`);
      printResult(result, io);
    }
    return result.status === 'ok' ? 0 : 1;
  },
};
