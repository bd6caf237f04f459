import os from 'node:os';
import type { KernelLimitReport, KernelLimitsReport } from '../../../src-preload/contract/doctor';
import type { KernelLimits, ResolvedKernelLimits } from '../config/kernelLimits';
import { isExecutableFile } from '../shared/executables';
import { detectCgroups, type CgroupSupport } from './cgroup';

export const PRLIMIT = '/usr/bin/prlimit';
const MiB = 1024 * 1024;

/**
 * RLIMIT_NPROC is counted per user namespace only since Linux 5.14; before that a small
 * limit inside the sandbox would count every process of the user on the host.
 */
export function nprocIsPerNamespace(release: string = os.release()): boolean {
  const [major, minor] = release.split('.').map((n) => parseInt(n, 10));
  return (major ?? 0) > 5 || ((major ?? 0) === 5 && (minor ?? 0) >= 14);
}

export function prlimitAvailable(): boolean {
  return isExecutableFile(PRLIMIT);
}

/**
 * The first command inside the sandbox: `prlimit` sets the limits on itself and then
 * executes the worker, so they hold from the worker's first instruction and are
 * inherited by everything it starts. Run inside bwrap's new user namespace, so the
 * process count is the sandbox's own, not the user's on the host.
 */
export function prlimitPrefix(limits: KernelLimits, release: string = os.release()): string[] {
  const args: string[] = [];
  if (limits.processes && nprocIsPerNamespace(release)) args.push(`--nproc=${limits.processes}`);
  if (limits.memoryMiB) args.push(`--as=${limits.memoryMiB * MiB}`);
  if (limits.fileSizeMiB) args.push(`--fsize=${limits.fileSizeMiB * MiB}`);
  if (limits.openFiles) args.push(`--nofile=${limits.openFiles}`);
  return args.length ? [PRLIMIT, ...args, '--'] : [];
}

export interface LimitEnvironment {
  /** Whether kernels run under bwrap (limits apply only there). */
  bwrap: boolean;
  /** bwrap understands `--size` (sized tmpfs). */
  tmpfsSize: boolean;
  prlimit: boolean;
  uid: number;
  kernelRelease: string;
  cgroups: CgroupSupport;
}

export function currentLimitEnvironment(bwrap: boolean, tmpfsSize: boolean): LimitEnvironment {
  return {
    bwrap,
    tmpfsSize,
    prlimit: prlimitAvailable(),
    uid: typeof process.getuid === 'function' ? process.getuid() : -1,
    kernelRelease: os.release(),
    cgroups: detectCgroups(),
  };
}

/** What applies each limit here, in words, for doctor. */
export function describeLimits(resolved: ResolvedKernelLimits, env: LimitEnvironment): KernelLimitsReport {
  const v = resolved.values;
  const cg = env.cgroups.controllers;
  const report = (name: keyof KernelLimits, unit: 'count' | 'MiB', mechanisms: string[], notes: string[] = []): KernelLimitReport => {
    const r: KernelLimitReport = { name, value: v[name] || null, unit, source: resolved.sources[name], variable: resolved.variables[name], mechanisms: v[name] ? mechanisms : [] };
    if (!v[name]) notes.unshift('no limit (0)');
    if (!env.bwrap) notes.unshift('not applied: kernels are not sandboxed with bwrap here');
    if (notes.length) r.note = notes.join('; ');
    return r;
  };
  const rl = (name: string) => (env.bwrap && env.prlimit ? [name] : []);
  const procNotes: string[] = [];
  const procMech = env.bwrap && env.prlimit && nprocIsPerNamespace(env.kernelRelease) ? ['RLIMIT_NPROC (inside the sandbox user namespace)'] : [];
  if (!nprocIsPerNamespace(env.kernelRelease)) procNotes.push(`RLIMIT_NPROC skipped: Linux ${env.kernelRelease} counts it across the whole user`);
  if (env.uid === 0) procNotes.push('uid 0 is exempt from RLIMIT_NPROC: only a pids cgroup binds it');
  if (env.bwrap && cg.pids) procMech.push(`cgroup ${cg.pids.version} pids.max`);
  const memMech = rl('RLIMIT_AS (per process)');
  if (env.bwrap && cg.memory) memMech.push(`cgroup ${cg.memory.version} memory limit (whole kernel)`);
  const tmpMech = env.bwrap && env.tmpfsSize ? ['bwrap --size tmpfs on /tmp and /dev/shm'] : [];
  const noPrlimit = env.bwrap && !env.prlimit ? [`${PRLIMIT} is missing (Debian: util-linux)`] : [];
  return {
    limits: [
      report('processes', 'count', procMech, [...procNotes, ...noPrlimit]),
      report('memoryMiB', 'MiB', memMech, [...noPrlimit]),
      report('fileSizeMiB', 'MiB', rl('RLIMIT_FSIZE'), [...noPrlimit]),
      report('openFiles', 'count', rl('RLIMIT_NOFILE'), [...noPrlimit]),
      report('tmpMiB', 'MiB', tmpMech, env.bwrap && !env.tmpfsSize ? ['this bwrap has no --size: /tmp is unbounded'] : []),
    ],
    cgroup: {
      controllers: Object.entries(cg).map(([name, where]) => `${name} (${where.version})`),
      reasons: env.cgroups.reasons,
    },
  };
}
