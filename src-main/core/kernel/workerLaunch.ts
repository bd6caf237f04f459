import fs from 'node:fs';
import path from 'node:path';
import { planBwrap } from './bwrapLaunch';
import type { KernelCache } from './cacheLayout';
import type { KernelCgroup } from './cgroup';
import type { ViewLease } from './pathViews';
import type { ProtectedHandle } from './protectedMounts';
import { SANDBOX_CACHE, SANDBOX_HOME, SANDBOX_MPLCONFIG, SANDBOX_SKILLS, SANDBOX_XDG_CACHE, kernelEnv, seatbeltProfile } from './sandbox';
import { workerBytecode } from './workerBytecode';
import { commandFor, scriptFor, type WorkerSpec } from './workerSpec';

/** How to spawn one generation: command, environment, extra fds, and what to clean up after it. */
export interface WorkerLaunch {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Under bwrap: the sandbox's layout, and the spawn is bwrap's. */
  bwrap: boolean;
  /** stdio entries after the worker's five (bwrap's own inputs). */
  extraStdio: ('pipe' | number)[];
  /** Data written to the pipes at these stdio indices, then closed. */
  feeds: Map<number, Buffer>;
  /** Closed once the child has its own copies. */
  protectedHandles: ProtectedHandle[];
  cgroup: KernelCgroup | null;
  /** The generation's own host folder (without bwrap), removed when it exits. */
  genDir: string | null;
  /** Views of host folders it holds (bwrap), released when it exits. */
  leases: ViewLease[];
  /** Under bwrap: whether its mounts name no host path. */
  hostPathsHidden: boolean;
}

/**
 * Without bwrap's private /tmp a generation gets its own host folder: home, temp, and a
 * copy of the read-only cache (so writing next to the font list never touches the
 * shared one). Removed when the generation exits.
 */
function hostGenerationDirs(genDir: string, cache: KernelCache | null) {
  const dirs = { home: path.join(genDir, 'home'), tmp: path.join(genDir, 'tmp'), mplConfig: path.join(genDir, 'mpl'), xdgCache: path.join(genDir, 'cache') };
  for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (cache) {
    for (const name of cache.mplFiles) fs.copyFileSync(path.join(cache.dir, 'matplotlib', name), path.join(dirs.mplConfig, name));
    for (const name of cache.xdgDirs) fs.cpSync(path.join(cache.dir, name), path.join(dirs.xdgCache, name), { recursive: true });
  }
  return dirs;
}

/**
 * Where the kernel finds each skill's folder (host.skills.path/sidecar read it): under
 * bwrap the read-only mount, otherwise the host folder itself (said so in OPENAI4S_SKILLS_AT).
 */
function skillsEnv(spec: WorkerSpec, bwrap: boolean): Record<string, string> {
  const skills = spec.skills ?? [];
  if (!skills.length) return {};
  const at = Object.fromEntries(skills.map((s) => [s.name, bwrap ? path.posix.join(SANDBOX_SKILLS, s.name) : s.dir]));
  return { OPENAI4S_SKILLS: JSON.stringify(at), OPENAI4S_SKILLS_AT: bwrap ? 'sandbox' : 'host' };
}

/**
 * Plans the spawn of one generation under the spec's sandbox (bwrap, Seatbelt or none).
 * Asynchronous where it waits on the system (bindfs mounts, the protected names): it runs
 * on Electron's main process, whose event loop the window's IPC shares.
 */
export async function planWorkerLaunch(spec: WorkerSpec, generation: string): Promise<WorkerLaunch> {
  const sandbox = spec.sandbox.state;
  const bwrap = sandbox.state === 'sandboxed' && sandbox.backend === 'bwrap';
  const seatbelt = sandbox.state === 'sandboxed' && sandbox.backend === 'sandbox-exec';
  let dirs = { home: SANDBOX_HOME, tmp: '/tmp', mplConfig: SANDBOX_MPLCONFIG, xdgCache: SANDBOX_XDG_CACHE };
  let genDir: string | null = null;
  if (!bwrap) {
    genDir = path.join(spec.tmpRoot, generation);
    dirs = hostGenerationDirs(genDir, spec.cache);
  }
  // Under bwrap the worker seeds its config dir from the read-only cache itself.
  const env = kernelEnv(spec.parentEnv, dirs, { ...(bwrap && spec.cache ? { OPENAI4S_KERNEL_CACHE: SANDBOX_CACHE } : {}), ...skillsEnv(spec, bwrap) });
  // bwrap changes into /workspace itself; starting it in / keeps the host path out of
  // anything inherited (a shell's PWD).
  const cwd = bwrap ? '/' : spec.workspace;
  if (bwrap) {
    const launch = await planBwrap(spec, generation);
    const { file, args, stdio: extraStdio, feeds, protectedHandles, cgroup, leases, hostPathsHidden } = launch;
    return { file, args, env, cwd, bwrap, extraStdio, feeds, protectedHandles, cgroup, genDir, leases, hostPathsHidden };
  }
  // Unsandboxed, the cached bytecode of this very source, if any (workerBytecode.ts). Not
  // under Seatbelt, whose profile does not let the worker read the cache folder.
  const cache = seatbelt ? null : spec.cache;
  const source = cache?.workerPyc ? await fs.promises.readFile(path.join(spec.workersDir, scriptFor(spec))).catch(() => null) : null;
  const bytecode = workerBytecode(spec, cache, source);
  const cmd = commandFor(spec, spec.workersDir, bytecode && cache ? path.join(cache.dir, bytecode) : null);
  let file = cmd[0]!;
  let args = cmd.slice(1);
  if (seatbelt) {
    const profile = seatbeltProfile({
      workspace: spec.workspace,
      workersDir: spec.workersDir,
      tmpDir: genDir!,
      interpreterPrefix: path.dirname(path.dirname(fs.realpathSync(spec.interpreter))),
      skillDirs: (spec.skills ?? []).map((s) => s.dir),
    });
    args = ['-p', profile, file, ...args];
    file = '/usr/bin/sandbox-exec';
  }
  return { file, args, env, cwd, bwrap, extraStdio: [], feeds: new Map(), protectedHandles: [], cgroup: null, genDir, leases: [], hostPathsHidden: false };
}
