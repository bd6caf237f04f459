import { spawn } from 'node:child_process';

/**
 * Runs a TypeScript fixture in a child process and kills it with SIGKILL (a real crash: no
 * cleanup, no close) as soon as what it printed satisfies `killWhen`. Returns everything it
 * printed; rejects if it exits before that, or ends other than by the kill.
 */
export async function runUntilKilled(script: string, args: string[], killWhen: (stdout: string) => boolean): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (!killWhen(out)) return;
      child.kill('SIGKILL');
      resolve();
    });
    void exited.then(() => reject(new Error(`${script} exited before the kill: ${err}`)));
  });
  const signal = await exited;
  if (signal !== 'SIGKILL') throw new Error(`${script} ended by ${signal ?? 'exit'}, not the kill`);
  return out;
}

/** The whole lines a fixture printed after its first (the last piece may be cut by the kill). */
export function linesAfterFirst(stdout: string): { first: string; printed: string[] } {
  const all = stdout.split('\n');
  return { first: all[0]!, printed: all.slice(1, -1) };
}

/** A `killWhen` for a fixture that prints one line per step after a first line: killed after `n` steps. */
export const afterLines = (n: number) => (stdout: string) => stdout.split('\n').length > n + 1;
