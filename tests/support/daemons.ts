import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * Small helpers the test daemons (slurmCluster.ts, sshServer.ts) share: where a binary is,
 * a free loopback port, waiting for a condition, and stopping a process by its pid.
 */

const SEARCH_PATH = ['/usr/sbin', '/usr/bin', '/sbin', '/bin', ...(process.env.PATH ?? '').split(':')];

/** Absolute path of an executable, or null when it is not installed. */
export function which(name: string): string | null {
  for (const dir of SEARCH_PATH) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // Not in this directory: try the next one.
    }
  }
  return null;
}

/** The binaries of `names` that are not installed (empty: all present). */
export function missingBinaries(names: string[]): string[] {
  return names.filter((n) => which(n) === null);
}

/** A loopback port nobody listens on right now (the kernel picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `check` until it answers true; throws with `what` and the last detail after `timeoutMs`. */
export async function waitFor(what: string, check: () => boolean | string, timeoutMs = 30_000, everyMs = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const result = check();
    if (result === true) return;
    if (typeof result === 'string') last = result;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${last}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid written in a pid file, or null while the daemon has not written it. */
export function readPid(file: string): number | null {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** SIGTERM, then SIGKILL if the process is still there after `graceMs`. Only the pid given. */
export async function stopPid(pid: number | null, graceMs = 5_000): Promise<void> {
  if (!pid || !pidAlive(pid)) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (pidAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (pidAlive(pid)) process.kill(pid, 'SIGKILL');
}

/** Runs a command and answers its stdout, or null (with nothing thrown) when it fails. */
export function tryRun(file: string, args: string[], env: NodeJS.ProcessEnv = process.env): string | null {
  try {
    return execFileSync(file, args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 15_000 });
  } catch {
    return null;
  }
}
