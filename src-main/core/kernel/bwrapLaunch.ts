import fs from 'node:fs';
import path from 'node:path';
import { createKernelCgroup, detectCgroups, type KernelCgroup } from './cgroup';
import { AppError } from '../../../src-preload/contract/errors';
import { errorMessage } from '../shared/errorMessage';
import type { KernelCache } from './cacheLayout';
import { prlimitAvailable, prlimitPrefix } from './limits';
import type { ViewLease } from './pathViews';
import { closeProtected, openProtectedNames, type ProtectedHandle } from './protectedMounts';
import { SANDBOX_CACHE, SANDBOX_WORKERS, bwrapArgs } from './sandbox';
import { seccompFilterForHost } from './seccomp/filter';
import { workerBytecode } from './workerBytecode';
import { commandFor, scriptFor, type SkillMount, type WorkerSpec } from './workerSpec';

/** Joins the kernel's cgroups, then becomes bwrap: everything the sandbox starts is inside them. */
const JOIN_CGROUPS = 'unset PWD OLDPWD; n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || { echo "openai4s: cannot join the kernel cgroup $1" >&2; exit 125; }; shift; n=$((n-1)); done; exec "$@"';

/** fds 0-5 are the worker's (stdio, the frame pipes and the answer pipe); bwrap's own inputs follow. */
export const WORKER_FDS = 6;
const ARGS_FD = WORKER_FDS; // the first of bwrap's own inputs

export interface BwrapLaunch {
  file: string;
  args: string[];
  /** stdio entries after the worker's six (WORKER_FDS). */
  stdio: ('pipe' | number)[];
  /** Data written to the pipes at these stdio indices, then closed. */
  feeds: Map<number, Buffer>;
  /** Closed by the caller once the child has its own copies. */
  protectedHandles: ProtectedHandle[];
  cgroup: KernelCgroup | null;
  /** The views of the workspace and the cache this generation holds; released when it exits. */
  leases: ViewLease[];
  /** Whether the sandbox's mounts name no host path (every folder came through a FUSE view). */
  hostPathsHidden: boolean;
}

/** Resolves once every view only these leases held is unmounted; never rejects. */
export async function releaseLeases(leases: ViewLease[]): Promise<void> {
  await Promise.all(leases.map((lease) => lease.release()));
}

/**
 * The workspace and cache as bwrap should bind them: through the shared FUSE views when
 * the hide-paths decision says so (hidePaths.ts, pathViews.ts), else the folders
 * themselves. In mode `auto` a failed mount falls back to plain binds; in `on` it refuses.
 */
async function leaseFolders(spec: WorkerSpec): Promise<{ workspace: string; cache: KernelCache | null; skills: SkillMount[]; leases: ViewLease[]; hidden: boolean }> {
  const decision = spec.sandbox.hidePaths;
  const views = spec.views;
  const skills = spec.skills ?? [];
  if (!views) return { workspace: spec.workspace, cache: spec.cache, skills, leases: [], hidden: false };
  const take = async (dir: string, readOnly: boolean): Promise<ViewLease> => {
    const tools = decision?.use ? decision.tools : null;
    try {
      return await views.acquire(dir, tools, readOnly);
    } catch (error) {
      if (decision?.mode === 'on') throw new AppError('unavailable', `${errorMessage(error)}. OPENAI4S_SANDBOX_HIDE_PATHS=on forbids starting the kernel without it; set it to auto or off.`);
      return views.acquire(dir, null, readOnly);
    }
  };
  // The workspace, the cache and each folder of skills are mounted at once (each its own bindfs).
  const parents = [...new Set(skills.map((skill) => path.dirname(skill.dir)))];
  const wanted: [string, boolean][] = [[spec.workspace, false], ...(spec.cache ? [[spec.cache.dir, true] as [string, boolean]] : []), ...parents.map((dir): [string, boolean] => [dir, true])];
  const settled = await Promise.allSettled(wanted.map(([dir, readOnly]) => take(dir, readOnly)));
  const leases = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    void releaseLeases(leases);
    throw failed.reason;
  }
  const [ws, ...rest] = leases as [ViewLease, ...ViewLease[]];
  const cacheLease = spec.cache ? rest.shift()! : null;
  // One read-only view per folder of skills (bundled, user, each added folder), not one per skill.
  const through = new Map(parents.map((parent, i) => [parent, rest[i]!.path]));
  const mounted = skills.map((skill) => ({ name: skill.name, dir: path.join(through.get(path.dirname(skill.dir))!, path.basename(skill.dir)) }));
  const cache = spec.cache && cacheLease ? { ...spec.cache, dir: cacheLease.path } : spec.cache;
  return { workspace: ws.path, cache, skills: mounted, leases, hidden: leases.every((l) => l.hidden) };
}

/**
 * bwrap's command line is only `bwrap --args 6`: its real arguments (which name host
 * paths) arrive on a pipe, so neither /proc/1/cmdline inside nor anything else in the
 * sandbox shows them. The worker script, the seccomp program and the protected names
 * arrive as fds too.
 */
export async function planBwrap(spec: WorkerSpec, generation: string): Promise<BwrapLaunch> {
  const features = spec.sandbox.features ?? [];
  const stdio: ('pipe' | number)[] = ['pipe'];
  const feeds = new Map<number, Buffer>();
  const nextPipe = (data: Buffer): number => {
    const index = WORKER_FDS + stdio.length;
    stdio.push('pipe');
    feeds.set(index, data);
    return index;
  };
  const seccomp = features.includes('seccomp') ? seccompFilterForHost() : null;
  const seccompFd = seccomp ? nextPipe(seccomp) : undefined;
  let workerScript: { fd: number; dest: string } | undefined;
  let source: Buffer | null = null;
  try {
    const data = (source = await fs.promises.readFile(path.join(spec.workersDir, scriptFor(spec))));
    workerScript = { fd: nextPipe(data), dest: path.posix.join(SANDBOX_WORKERS, scriptFor(spec)) };
  } catch {
    // Unreadable: bind the folder instead, and let the interpreter report the problem.
  }
  const folders = await leaseFolders(spec);
  let protectedHandles: ProtectedHandle[];
  try {
    // Opened through the view when there is one, so their mounts' roots are `/.git` etc.
    protectedHandles = await openProtectedNames(folders.workspace);
  } catch (error) {
    void releaseLeases(folders.leases);
    throw error;
  }
  try {
    const protectedFds = protectedHandles.map((h) => {
      stdio.push(h.fd);
      return { fd: WORKER_FDS + stdio.length - 1, name: h.name };
    });
    const limits = spec.limits;
    // The worker's cached bytecode when it is of this source (workerBytecode.ts); the source stays bound beside it.
    const bytecode = workerBytecode(spec, folders.cache, source);
    const inner = [...(limits && prlimitAvailable() ? prlimitPrefix(limits) : []), ...commandFor(spec, SANDBOX_WORKERS, bytecode && path.posix.join(SANDBOX_CACHE, bytecode))];
    const sandboxArgs = bwrapArgs({
      workspace: folders.workspace,
      workersDir: spec.workersDir,
      cache: folders.cache,
      interpreter: spec.interpreter,
      features,
      ...(limits?.tmpMiB ? { tmpMiB: limits.tmpMiB } : {}),
      ...(seccompFd !== undefined ? { seccompFd } : {}),
      ...(workerScript ? { workerScript } : {}),
      protectedFds,
      skills: folders.skills,
    });
    const bwrap = spec.sandbox.bwrap ?? 'bwrap';
    let file = bwrap;
    // bwrap takes only options from --args; the command stays on its argv, and it names
    // only paths inside the sandbox.
    let args = [...sandboxArgs, ...inner]; // an old bwrap without --args: the plain argv
    if (features.includes('args')) {
      const options = sandboxArgs.slice(0, sandboxArgs.lastIndexOf('--'));
      feeds.set(ARGS_FD, Buffer.from(options.map((a) => `${a}\0`).join('')));
      args = ['--args', String(ARGS_FD), '--', ...inner];
    }
    const cgroup = limits ? createKernelCgroup(detectCgroups(), `openai4s-${generation}`, limits) : null;
    if (cgroup) {
      args = ['-c', JOIN_CGROUPS, 'openai4s-kernel', String(cgroup.procs.length), ...cgroup.procs, file, ...args];
      file = '/bin/sh';
    }
    return { file, args, stdio, feeds, protectedHandles, cgroup, leases: folders.leases, hostPathsHidden: folders.hidden };
  } catch (error) {
    closeProtected(protectedHandles);
    void releaseLeases(folders.leases);
    throw error;
  }
}
