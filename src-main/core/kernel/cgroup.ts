import fs from 'node:fs';
import path from 'node:path';

/**
 * Per-kernel cgroups where the app may create them: a pids limit that holds even for
 * uid 0 (which RLIMIT_NPROC exempts) and a memory limit over all of a kernel's
 * processes. cgroup v2 needs a delegated subtree (the app's own cgroup with the
 * controllers enabled for children); cgroup v1 needs a writable pids/memory hierarchy.
 * Nothing here is required: without cgroups the rlimits still apply, and doctor says so.
 */
export type CgroupController = 'pids' | 'memory';

export interface CgroupSupport {
  /** Where each controller's per-kernel cgroups are created, and which version it is. */
  controllers: Partial<Record<CgroupController, { version: 'v1' | 'v2'; base: string }>>;
  /** What is missing, in words (for doctor). */
  reasons: string[];
}

interface Mount {
  point: string;
  type: string;
  options: string[];
}

function mounts(): Mount[] {
  const out: Mount[] = [];
  for (const line of fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    const [left, right] = line.split(' - ');
    if (!left || !right) continue;
    const [type, , superOptions] = right.split(' ');
    out.push({ point: left.split(' ')[4]!, type: type!, options: (superOptions ?? '').split(',') });
  }
  return out;
}

/** Whether a child cgroup can be made (and removed) under `base`. */
function canCreateUnder(base: string): boolean {
  const probe = path.join(base, `openai4s-probe-${process.pid}`);
  try {
    fs.mkdirSync(probe);
    fs.rmdirSync(probe);
    return true;
  } catch {
    // No permission there (the usual case outside a delegated subtree): not usable.
    return false;
  }
}

function readWords(file: string): string[] {
  try {
    return fs.readFileSync(file, 'utf8').trim().split(/\s+/);
  } catch {
    // A control file that is not there lists nothing.
    return [];
  }
}

/**
 * Kernel cgroups left by an app that exited before its kernels' processes were gone.
 * rmdir refuses a cgroup that still has processes, so a live kernel's is never removed;
 * a minute's age keeps off one another app instance is still setting up.
 */
function removeStale(base: string): void {
  let names: string[] = [];
  try {
    names = fs.readdirSync(base).filter((n) => n.startsWith('openai4s-') && !n.startsWith('openai4s-probe-'));
  } catch {
    // An unreadable base has nothing of ours to clean.
    return;
  }
  for (const name of names) {
    try {
      const dir = path.join(base, name);
      if (Date.now() - fs.statSync(dir).mtimeMs > 60_000) fs.rmdirSync(dir);
    } catch {
      // busy (a live kernel) or gone
    }
  }
}

let cached: CgroupSupport | null = null;

export function detectCgroups(refresh = false): CgroupSupport {
  if (cached && !refresh) return cached;
  const support: CgroupSupport = { controllers: {}, reasons: [] };
  if (process.platform !== 'linux') {
    support.reasons.push('cgroups exist only on Linux');
    return (cached = support);
  }
  let own: string[] = [];
  let all: Mount[] = [];
  try {
    own = fs.readFileSync('/proc/self/cgroup', 'utf8').trim().split('\n');
    all = mounts();
  } catch {
    support.reasons.push('cannot read /proc/self/cgroup');
    return (cached = support);
  }
  const v2Mount = all.find((m) => m.type === 'cgroup2');
  const v2Path = own.find((l) => l.startsWith('0::'))?.slice(3);
  if (v2Mount && v2Path !== undefined) {
    const base = path.join(v2Mount.point, v2Path);
    const enabled = readWords(path.join(base, 'cgroup.subtree_control'));
    const wanted = (['pids', 'memory'] as const).filter((c) => enabled.includes(c));
    if (wanted.length && canCreateUnder(base)) for (const c of wanted) support.controllers[c] = { version: 'v2', base };
    else support.reasons.push(`cgroup v2 at ${v2Mount.point} has no delegated pids/memory controllers for the app's cgroup (start the app in a delegated scope, e.g. systemd-run --user --scope -p Delegate=yes)`);
  }
  for (const controller of ['pids', 'memory'] as const) {
    if (support.controllers[controller]) continue;
    const mount = all.find((m) => m.type === 'cgroup' && m.options.includes(controller));
    const line = own.map((l) => l.split(':')).find((f) => f[1]?.split(',').includes(controller));
    if (!mount || !line) continue;
    const base = path.join(mount.point, line.slice(2).join(':'));
    if (canCreateUnder(base)) support.controllers[controller] = { version: 'v1', base };
    else support.reasons.push(`cgroup v1 ${controller} hierarchy at ${base} is not writable by the app`);
  }
  if (!v2Mount && !all.some((m) => m.type === 'cgroup')) support.reasons.push('no cgroup file system is mounted');
  for (const where of Object.values(support.controllers)) removeStale(where.base);
  return (cached = support);
}

export interface KernelCgroup {
  /** `cgroup.procs` files the launcher writes its pid into before it starts bwrap. */
  procs: string[];
  /** Removes the cgroups once the kernel's processes are gone (retries briefly). */
  remove(): void;
  /** The memory limit over all its processes, when a memory cgroup holds it. */
  memoryMiB: number | null;
  /** How many of its processes the kernel's OOM killer ended for that limit (read before `remove`). */
  oomKills(): number;
}

/** `oom_kill N` from a memory cgroup's events (v2 memory.events, v1 memory.oom_control); 0 when unreadable. */
function oomKillsIn(file: string): number {
  try {
    const line = fs.readFileSync(file, 'utf8').split('\n').find((l) => l.startsWith('oom_kill '));
    return line ? Number(line.slice('oom_kill '.length)) || 0 : 0;
  } catch {
    return 0; // gone already, or a kernel too old to count them
  }
}

/** Makes the cgroups for one kernel generation with its limits, or null when none is usable. */
export function createKernelCgroup(support: CgroupSupport, name: string, limits: { processes: number; memoryMiB: number }): KernelCgroup | null {
  const dirs: string[] = [];
  let events: string | null = null;
  const settings: [CgroupController, number, string, string][] = [
    ['pids', limits.processes, 'pids.max', 'pids.max'],
    ['memory', limits.memoryMiB * 1024 * 1024, 'memory.max', 'memory.limit_in_bytes'],
  ];
  for (const [controller, value, v2File, v1File] of settings) {
    const where = support.controllers[controller];
    if (!where || !value) continue;
    const dir = path.join(where.base, name);
    try {
      fs.mkdirSync(dir);
      dirs.push(dir);
      fs.writeFileSync(path.join(dir, where.version === 'v2' ? v2File : v1File), String(value));
      if (controller === 'memory' && where.version === 'v2') fs.writeFileSync(path.join(dir, 'memory.swap.max'), '0');
      if (controller === 'memory') events = path.join(dir, where.version === 'v2' ? 'memory.events' : 'memory.oom_control');
    } catch {
      // A cgroup that cannot be set up is skipped; the rlimits still apply.
    }
  }
  if (!dirs.length) return null;
  const remove = (attempt = 0): void => {
    const left = dirs.filter((dir) => {
      try {
        fs.rmdirSync(dir);
        return false;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code !== 'ENOENT';
      }
    });
    dirs.splice(0, dirs.length, ...left);
    if (left.length && attempt < 20) setTimeout(() => remove(attempt + 1), 100 * (attempt + 1)).unref();
  };
  const file = events;
  return {
    procs: dirs.map((d) => path.join(d, 'cgroup.procs')),
    remove: () => remove(),
    memoryMiB: file ? limits.memoryMiB : null,
    oomKills: () => (file ? oomKillsIn(file) : 0),
  };
}
