import { execFile } from 'node:child_process';

/**
 * Runs a short probe command (an interpreter's version, a sandbox self-test) with a bound
 * on time and output. Shared by every layer that probes the machine, so a failure reads
 * the same everywhere: not found, timed out, exit code N with the last line of stderr.
 */

export interface ExecOutcome {
  ok: boolean;
  stdout: string;
  stderr: string;
  /** Why it failed, in words: not found, timed out, exit code N. */
  reason?: string;
}

/** Runs `file` with `args`; never rejects (a failure is `ok: false` with its reason). */
export function execProbe(file: string, args: string[], options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<ExecOutcome> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { timeout: options.timeoutMs ?? 15_000, maxBuffer: 1 << 20, encoding: 'utf8', env: options.env ?? process.env, windowsHide: true },
      (error, stdout, stderr) => {
        if (!error) return resolve({ ok: true, stdout, stderr });
        const e = error as NodeJS.ErrnoException & { killed?: boolean; code?: unknown };
        let reason: string;
        if (e.code === 'ENOENT') reason = `${file} not found`;
        else if (e.killed) reason = `${file} timed out`;
        else if (typeof e.code === 'number') reason = `${file} exited with code ${e.code}: ${lastLine(stderr)}`;
        else reason = `${file} failed: ${e.message}`;
        resolve({ ok: false, stdout, stderr, reason });
      },
    );
  });
}

/** The last line of a command's output, capped: enough to say what went wrong. */
export function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines[lines.length - 1] ?? '').slice(0, 300);
}
