import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { processIdentity, submitterMayBeAlive, submitterStamp } from '../../../src-main/core/compute/submitRecovery';

/**
 * Whether the process that wrote a job row may still be submitting it. A pid alone is not
 * enough: after the submitter died (a crash, a reboot) another process may hold its pid, and
 * the job would then wait for that stranger forever, neither adopted nor declared lost.
 */

const hour = new Date(Date.now() - 60 * 60_000).toISOString();
let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});

function liveStranger(): number {
  child = spawn('sleep', ['30'], { stdio: 'ignore' });
  return child.pid!;
}

describe.skipIf(process.platform !== 'linux')('the submitter of a job row', () => {
  it('stamps this process with the identity of its start, so a later holder of its pid is told apart', () => {
    const stamp = submitterStamp('inst');
    expect(stamp).toMatchObject({ instance: 'inst', pid: process.pid, host: os.hostname() });
    expect(stamp.started).toBe(processIdentity(process.pid));
    expect(stamp.started).toMatch(/^[0-9a-f-]+:\d+$/);
  });

  it('counts a live process started when the stamp says as the submitter still at work', () => {
    const pid = liveStranger();
    expect(submitterMayBeAlive({ instance: 'cli', pid, host: os.hostname(), started: processIdentity(pid)! }, hour)).toBe(true);
  });

  it('counts the submitter dead when its pid now belongs to a process started at another time (pid reuse)', () => {
    const pid = liveStranger();
    const started = processIdentity(pid)!;
    const earlier = started.replace(/:(\d+)$/, (_m, t: string) => `:${Number(t) - 1}`);
    expect(submitterMayBeAlive({ instance: 'cli', pid, host: os.hostname(), started: earlier }, hour)).toBe(false);
  });

  it('counts a row from before start identities were stamped by its pid alone', () => {
    const pid = liveStranger();
    expect(submitterMayBeAlive({ instance: 'cli', pid, host: os.hostname() }, hour)).toBe(true);
  });
});
