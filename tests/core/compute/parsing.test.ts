import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mapSlurmState, parseExitCode, parseSlurmDuration } from '../../../src-main/core/compute/scheduler';
import { parseScontrol, statusFromSacct, statusFromScontrol } from '../../../src-main/core/compute/slurm';
import { statusFromFacts } from '../../../src-main/core/compute/sshHost';
import { TargetStore } from '../../../src-main/core/compute/targets';
import { commandEnv, shQuote, sshArgs } from '../../../src-main/core/compute/transport';

/**
 * What the scheduler says, read without a cluster. The scontrol line is real output of
 * `scontrol show job -o` from Slurm 22.05 (the single-node test cluster of
 * tests/support/slurmCluster.ts, a job that exited 3), trimmed of fields the app ignores.
 */
const SCONTROL_FAILED =
  'JobId=1 JobName=t1 UserId=root(0) GroupId=root(0) MCS_label=N/A Priority=4294901759 Nice=0 Account=(null) QOS=(null) JobState=FAILED Reason=NonZeroExitCode Dependency=(null) Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=3:0 RunTime=00:00:00 TimeLimit=00:01:00 TimeMin=N/A SubmitTime=2026-12-01T08:10:49 EligibleTime=2026-12-01T08:10:49 AccrueTime=2026-12-01T08:10:49 StartTime=2026-12-01T08:10:50 EndTime=2026-12-01T08:10:50 Deadline=N/A Partition=debug AllocNode:Sid=localhost:8846 ReqNodeList=(null) ExcNodeList=(null) NodeList=vm BatchHost=vm NumNodes=1 NumCPUs=1';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});

describe('Slurm output', () => {
  it('reads a failed job from scontrol: state, exit code, node, partition, times', () => {
    expect(statusFromScontrol(parseScontrol(SCONTROL_FAILED))).toEqual({
      state: 'failed',
      exitCode: 3,
      node: 'vm',
      partition: 'debug',
      elapsedSeconds: 0,
      startedAt: '2026-12-01T08:10:50.000Z',
      endedAt: '2026-12-01T08:10:50.000Z',
      reason: 'NonZeroExitCode',
    });
  });

  it('reads a timed-out job (killed by signal 15) and a pending one', () => {
    const timeout = statusFromScontrol(parseScontrol('JobId=2 JobState=TIMEOUT Reason=TimeLimit ExitCode=0:15 RunTime=00:01:17 StartTime=2026-12-01T08:10:56 EndTime=2026-12-01T08:12:13 Partition=debug NodeList=vm'));
    expect(timeout).toMatchObject({ state: 'timeout', exitCode: 143, elapsedSeconds: 77, reason: 'TimeLimit; signal 15' });
    const pending = statusFromScontrol(parseScontrol('JobId=3 JobState=PENDING Reason=Resources ExitCode=0:0 RunTime=00:00:00 StartTime=Unknown EndTime=Unknown Partition=gpu NodeList=(null)'));
    expect(pending).toMatchObject({ state: 'pending', exitCode: null, node: null, startedAt: null, endedAt: null, reason: 'Resources' });
  });

  it('reads sacct lines, for jobs the controller has forgotten', () => {
    expect(statusFromSacct('42|OUT_OF_MEMORY|0:125|node7|big|3600|2026-01-01T00:00:00|2026-01-01T01:00:00')).toMatchObject({
      state: 'out_of_memory',
      exitCode: 0,
      node: 'node7',
      partition: 'big',
      elapsedSeconds: 3600,
    });
    expect(statusFromSacct('43|CANCELLED by 1000|0:15|None assigned|big|0|Unknown|2026-01-01T01:00:00')).toMatchObject({ state: 'cancelled', node: null, reason: 'signal 15; cancelled by 1000' });
  });

  it('maps every Slurm state to ours and never an unknown one to success', () => {
    expect(mapSlurmState('NODE_FAIL').state).toBe('node_fail');
    expect(mapSlurmState('PREEMPTED')).toEqual({ state: 'failed', note: 'PREEMPTED' });
    expect(mapSlurmState('COMPLETING').state).toBe('running');
    expect(mapSlurmState('SOMETHING_NEW')).toEqual({ state: 'failed', note: 'unrecognised Slurm state SOMETHING_NEW' });
    expect(parseSlurmDuration('1-02:03:04')).toBe(93784);
    expect(parseSlurmDuration('03:04')).toBe(184);
    expect(parseSlurmDuration('UNLIMITED')).toBeNull();
    expect(parseExitCode('0:9')).toEqual({ exitCode: 137, signal: 9 });
  });
});

describe('SSH host job records', () => {
  it('reads the wrapper files: exited, timed out, cancelled, vanished', () => {
    const base = { node: 'box', started: '2026-01-01T00:00:00Z', ended: '2026-01-01T00:00:10Z', now: '2026-01-01T00:01:00Z' };
    expect(statusFromFacts({ ...base, state: 'exited 0' })).toMatchObject({ state: 'completed', exitCode: 0, elapsedSeconds: 10, node: 'box' });
    expect(statusFromFacts({ ...base, state: 'exited 2' })).toMatchObject({ state: 'failed', exitCode: 2 });
    expect(statusFromFacts({ ...base, state: 'timedout' })).toMatchObject({ state: 'timeout' });
    expect(statusFromFacts({ ...base, state: 'cancelled' })).toMatchObject({ state: 'cancelled' });
    expect(statusFromFacts({ ...base, state: 'running', ended: '' })).toMatchObject({ state: 'running', elapsedSeconds: 60, endedAt: null });
    expect(statusFromFacts({ ...base, state: 'vanished' })).toMatchObject({ state: 'failed', exitCode: null, reason: expect.stringContaining('left no exit record') });
  });
});

describe('targets and commands', () => {
  it('stores targets by name and refuses key material and passwords', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-targets-'));
    dirs.push(dir);
    const store = new TargetStore(dir);
    expect(store.list()).toEqual([]);
    store.save({ name: 'hpc', kind: 'slurm', host: 'login.hpc.example.org', user: 'me', identityFile: '/home/me/.ssh/id_ed25519', partition: 'gpu', account: 'lab42', defaults: { cpus: 4, memoryMb: 8000 } });
    store.save({ name: 'hpc', kind: 'slurm', partition: 'cpu' });
    expect(store.list()).toEqual([{ name: 'hpc', kind: 'slurm', partition: 'cpu' }]);
    expect(() => store.save({ name: 'x', kind: 'ssh', host: 'h', passphrase: 'p' })).toThrow(/must not hold a key, password or token/);
    expect(() => store.save({ name: 'x', kind: 'ssh' })).toThrow(/an ssh target needs a host/);
    expect(() => store.save({ name: 'x', kind: 'slurm', host: 'h; rm -rf ~' })).toThrow(/a host is letters, digits/);
    expect(() => store.get('nope')).toThrow(/No compute target "nope"\. Configured: hpc\./);
    fs.writeFileSync(store.file, '{"targets": [{"name": "k", "kind": "ssh", "host": "h", "key": "AAAA"}]}');
    expect(() => store.list()).toThrow(/must not hold a key/);
  });

  it('keeps host key checking on and passes no app secret to target commands', () => {
    const args = sshArgs({ name: 't', kind: 'ssh', host: 'gpu.example.org', port: 2222, user: 'me', identityFile: '/k', knownHostsFile: '/kh' });
    expect(args.join(' ')).toContain('-o StrictHostKeyChecking=yes');
    expect(args.join(' ')).toContain('-o BatchMode=yes');
    expect(args.join(' ')).toContain('-o UserKnownHostsFile=/kh');
    expect(args.slice(-2)).toEqual(['--', 'gpu.example.org']);
    // A reused connection is named by the trust settings too: another known_hosts file never reuses it.
    const control = (kh: string) => sshArgs({ name: 't', kind: 'ssh', host: 'gpu.example.org', knownHostsFile: kh }, '/d').find((a) => a.startsWith('ControlPath='));
    expect(control('/kh1')).toMatch(/^ControlPath=\/d\/[0-9a-f]{16}$/);
    expect(control('/kh1')).not.toBe(control('/kh2'));
    const env = commandEnv({ PATH: '/bin', HOME: '/h', SSH_AUTH_SOCK: '/s', SLURM_CONF: '/c', OPENAI4S_OPENAI_API_KEY: 'sk-x', AWS_SECRET_ACCESS_KEY: 'y' });
    expect(env).toEqual({ PATH: '/bin', HOME: '/h', SSH_AUTH_SOCK: '/s', SLURM_CONF: '/c' });
    expect(shQuote("it's; rm")).toBe(`'it'\\''s; rm'`);
  });

  it.skipIf(spawnSync('ssh', ['-V']).error !== undefined)('passes a data root or known_hosts path with spaces to ssh as one value', () => {
    const args = sshArgs({ name: 't', kind: 'ssh', host: 'gpu.example.org', knownHostsFile: '/Users/John Smith/known hosts' }, '/Users/John Smith/Application Support/o4s');
    // `ssh -G` parses the options exactly as a connection would, then prints the result.
    const shown = spawnSync('ssh', ['-G', ...args], { encoding: 'utf8' });
    expect(shown.stderr).toBe('');
    expect(shown.stdout).toContain('userknownhostsfile /Users/John Smith/known hosts\n');
    expect(shown.stdout).toMatch(/^controlpath \/Users\/John Smith\/Application Support\/o4s\/[0-9a-f]{16}$/m);
  });
});
