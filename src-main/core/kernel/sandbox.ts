import fs from 'node:fs';
import { etcPrivate, etcPrivateArgs } from './etcPrivate';
import path from 'node:path';
import type { SandboxMode, SandboxReport } from '../../../src-preload/contract/doctor';
import type { KernelSandboxState } from '../../../src-preload/contract/kernel';
import { probeSandbox } from './sandboxProbe';
import { PROTECTED_DIRS, PROTECTED_FILES } from '../security/protectedPaths';
import type { KernelCache } from './cacheLayout';
import { describeHostPaths, type HidePathsDecision } from './hidePaths';

/** Where things appear inside the Linux sandbox (host paths never leak into a cell). */
export const SANDBOX_WORKSPACE = '/workspace';
export const SANDBOX_WORKERS = '/opt/openai4s/workers';
/** Each enabled skill's folder, read-only, at /opt/openai4s/skills/<name>. */
export const SANDBOX_SKILLS = '/opt/openai4s/skills';
/** The shared kernel cache, read-only; its path is in OPENAI4S_KERNEL_CACHE. */
export const SANDBOX_CACHE = '/cache';
/** Per-generation writable places inside the sandbox's private /tmp. */
export const SANDBOX_HOME = '/tmp/home';
export const SANDBOX_MPLCONFIG = '/tmp/mpl';
export const SANDBOX_XDG_CACHE = '/tmp/cache';

/** Names a kernel must never see, whatever the allowlist says (DESIGN.md: no API keys). */
const DENY = /KEY|TOKEN|SECRET|PASSWORD|^ELECTRON_|^NODE_OPTIONS$/i;
/** Variables passed through from the parent when present: locale and time zone only. */
const PASS = /^(LANG|LANGUAGE|LC_[A-Z]+|TZ)$/;

/**
 * The kernel's environment, rebuilt from an allowlist: never a copy of the app's
 * environment with a few names removed, so a key under an unexpected name stays out.
 */
export function kernelEnv(
  parent: NodeJS.ProcessEnv,
  dirs: { home: string; tmp: string; mplConfig: string; xdgCache: string },
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: dirs.home,
    TMPDIR: dirs.tmp,
    MPLBACKEND: 'Agg',
    MPLCONFIGDIR: dirs.mplConfig,
    XDG_CACHE_HOME: dirs.xdgCache,
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONIOENCODING: 'utf-8',
    R_LIBS_USER: path.posix.join(dirs.tmp, 'R-library-unused'),
    OPENAI4S_KERNEL: '1',
  };
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && PASS.test(name)) env[name] = value;
  }
  Object.assign(env, extra);
  for (const name of Object.keys(env)) if (DENY.test(name)) delete env[name];
  return env;
}

export interface BwrapPlan {
  workspace: string;
  workersDir: string;
  interpreter: string;
  /** The kernel cache, placed read-only into the generation's writable tmp. */
  cache: KernelCache | null;
  /** Options this bwrap understands (from the doctor probe); absent: only the basic ones. */
  features?: readonly string[];
  /** Size of the private /tmp and /dev/shm in MiB (0 or absent: unbounded). */
  tmpMiB?: number;
  /** An fd (in bwrap) holding the seccomp program. */
  seccompFd?: number;
  /**
   * An fd (in bwrap) holding the worker script: copied into the sandbox instead of
   * binding the app's folder, so no mount names the app's install path.
   */
  workerScript?: { fd: number; dest: string };
  /** O_PATH fds (in bwrap) of the protected names at the workspace root, bound read-only. */
  protectedFds?: { fd: number; name: string }[];
  /** Skill folders (host path or its view), bound read-only at SANDBOX_SKILLS/<name>. */
  skills?: { name: string; dir: string }[];
}

/** A skill name as the catalogue allows it: it becomes one path component, nothing more. */
const MOUNTABLE_SKILL = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A path that is a symlink at the root (merged /usr) is recreated as a symlink inside. */
function rootEntry(name: string): string[] {
  const host = `/${name}`;
  try {
    const st = fs.lstatSync(host);
    if (st.isSymbolicLink()) return ['--symlink', fs.readlinkSync(host), host];
    if (st.isDirectory()) return ['--ro-bind', host, host];
  } catch {
    // absent on this system
  }
  return [];
}

/**
 * bubblewrap arguments (DESIGN.md, Kernels): read-only system, the session workspace as
 * the only persistent writable place (with its protected names read-only), a private,
 * size-limited /tmp and /dev/shm, fresh namespaces (no network, own pids, so `/proc`
 * shows no host process and a background child dies with the kernel, no further user
 * namespaces), a seccomp filter, a new session (no TIOCSTI into the app's terminal),
 * death with the parent. See kernel-workers/README.md, "Sandbox guarantees".
 */
export function bwrapArgs(plan: BwrapPlan): string[] {
  const has = (feature: string) => plan.features?.includes(feature) ?? false;
  const sized = (mib: number | undefined) => (mib && has('size') ? ['--size', String(mib * 1024 * 1024)] : []);
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const name of ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32']) args.push(...rootEntry(name));
  // /etc read-only: the dynamic loader's and BLAS's configuration live there.
  args.push('--ro-bind', '/etc', '/etc', ...etcPrivateArgs(etcPrivate()));
  // An interpreter outside /usr (a conda or pyenv prefix) needs its prefix, read-only.
  const real = fs.realpathSync(plan.interpreter);
  const realPrefix = real.startsWith('/usr/') ? null : path.dirname(path.dirname(real));
  if (realPrefix) args.push('--ro-bind', realPrefix, realPrefix);
  args.push('--bind', plan.workspace, SANDBOX_WORKSPACE);
  // Mounted over the workspace's own entries: read-only, and as mount points they can
  // be neither renamed nor deleted from inside.
  for (const { fd, name } of plan.protectedFds ?? []) args.push('--ro-bind-fd', String(fd), path.posix.join(SANDBOX_WORKSPACE, name));
  args.push(...sized(plan.tmpMiB), '--tmpfs', '/tmp', '--dir', SANDBOX_HOME, '--dir', SANDBOX_MPLCONFIG, '--dir', SANDBOX_XDG_CACHE);
  if (plan.workerScript) args.push('--ro-bind-data', String(plan.workerScript.fd), plan.workerScript.dest);
  else args.push('--ro-bind', plan.workersDir, SANDBOX_WORKERS);
  // Skills: scripts, references and sidecars a cell reads or imports, never writes.
  for (const skill of plan.skills ?? []) {
    if (!MOUNTABLE_SKILL.test(skill.name)) throw new Error(`skill name "${skill.name}" cannot be mounted: names are lower-case letters, digits and hyphens`);
    args.push('--ro-bind', skill.dir, path.posix.join(SANDBOX_SKILLS, skill.name));
  }
  // The cache is shared by every session, so it is read-only in here. The worker copies
  // matplotlib's font list into the generation's writable config dir at start (matplotlib
  // must be able to rewrite it if fonts change); fontconfig reads its folder in place
  // under XDG_CACHE_HOME and copes with not being able to update it.
  if (plan.cache) {
    args.push('--ro-bind', plan.cache.dir, SANDBOX_CACHE);
    for (const name of plan.cache.xdgDirs) args.push('--ro-bind', path.join(plan.cache.dir, name), path.posix.join(SANDBOX_XDG_CACHE, name));
  }
  // A virtualenv's interpreter is a symlink into its base: its pyvenv.cfg and packages are
  // in its own folder, bound read-only at its host path (after /tmp's tmpfs, which would
  // hide one under /tmp).
  const envPrefix = path.dirname(path.dirname(path.resolve(plan.interpreter)));
  if (!plan.interpreter.startsWith('/usr/') && envPrefix !== realPrefix && envPrefix !== '/') args.push('--ro-bind', envPrefix, envPrefix);
  args.push('--dev', '/dev');
  // bwrap's /dev/shm is a folder on its /dev tmpfs, unbounded: give it its own, sized.
  if (plan.tmpMiB && has('size')) args.push(...sized(plan.tmpMiB), '--tmpfs', '/dev/shm');
  // The system's settings are the host's (a pid namespace does not make its own): read-only,
  // as bwrap already makes /proc/irq and /proc/bus, else root in a kernel could set
  // core_pattern and run a program as the host's root.
  args.push('--proc', '/proc', '--ro-bind', '/proc/sys', '/proc/sys', '--ro-bind-try', '/proc/sysrq-trigger', '/proc/sysrq-trigger');
  args.push('--remount-ro', '/', '--unshare-all');
  // Run as root, bwrap keeps root's capabilities for the kernel unless told not to.
  if (process.geteuid?.() === 0) args.push('--cap-drop', 'ALL');
  // No user namespaces inside (they are the door to most kernel attack surface).
  if (has('disable-userns')) args.push('--unshare-user', '--disable-userns');
  if (plan.seccompFd !== undefined) args.push('--seccomp', String(plan.seccompFd));
  args.push('--die-with-parent', '--new-session', '--chdir', SANDBOX_WORKSPACE, '--');
  return args;
}

function seatbeltString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * A Seatbelt profile for `sandbox-exec -p` on macOS: deny by default, read the system
 * and the interpreter, write only the workspace and the generation's temp folder,
 * no network at all, and the macOS side of the seccomp filter: no looking into or
 * signalling other processes (task ports, process info), no kernel extensions or
 * system-wide settings, and the protected names at the workspace root not writable.
 * Generated here and unit-tested as text; executed only on macOS.
 */
export function seatbeltProfile(p: { workspace: string; workersDir: string; tmpDir: string; interpreterPrefix: string; skillDirs?: string[] }): string {
  // Skill folders are read in place (no remapping under Seatbelt): readable, not writable.
  const read = ['/usr', '/bin', '/System', '/Library', '/private/etc', '/private/var/db', '/opt/homebrew', '/dev', p.interpreterPrefix, p.workersDir, ...(p.skillDirs ?? [])];
  // tmpDir is the generation's own (home, temp, caches copied from the read-only cache).
  const write = [p.workspace, p.tmpDir];
  const ws = p.workspace.replace(/\/+$/, '');
  const protectedRules = [
    ...PROTECTED_DIRS.map((n) => `(subpath ${seatbeltString(`${ws}/${n}`)})`),
    ...PROTECTED_FILES.map((n) => `(literal ${seatbeltString(`${ws}/${n}`)})`),
  ];
  return [
    '(version 1)',
    '(deny default)',
    '(allow process-fork)',
    '(allow process-exec)',
    '(allow signal (target same-sandbox))',
    // Its own processes only: process info and task ports of anything outside the
    // sandbox stay denied by default (the ptrace/process_vm_readv equivalents), as do
    // kernel extensions, sysctl writes, privileged system calls and NVRAM.
    '(allow process-info* (target same-sandbox))',
    '(allow mach-priv-task-port (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow ipc-posix-shm)',
    '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo"))',
    '(allow file-read-metadata)',
    '(allow file-read* (literal "/") (literal "/dev/null") (literal "/dev/urandom") (literal "/dev/random"))',
    `(allow file-read* ${read.map((d) => `(subpath ${seatbeltString(d)})`).join(' ')})`,
    `(allow file-read* file-write* ${write.map((d) => `(subpath ${seatbeltString(d)})`).join(' ')} (literal "/dev/null"))`,
    // Later rules win in Seatbelt: the protected names stay readable, never writable.
    `(deny file-write* ${protectedRules.join(' ')})`,
    '(deny network*)',
    '',
  ].join('\n');
}

export interface SandboxDecision {
  /** The state each generation reports. */
  state: KernelSandboxState;
  /** bwrap path when sandboxing with bubblewrap. */
  bwrap?: string;
  /** The bwrap options available beyond the basic ones (see BwrapPlan.features). */
  features?: string[];
  /** Set when the mode forbids starting a kernel (enforce without a sandbox). */
  refuse?: string;
  /** Under bwrap: whether the workspace and cache reach it through a FUSE view (hidePaths.ts). */
  hidePaths?: HidePathsDecision;
}

let selfTest: Promise<SandboxReport> | null = null;

/** The sandbox self-test runs once per app start, not once per kernel. */
export function sandboxSelfTest(mode: SandboxMode, env: NodeJS.ProcessEnv): Promise<SandboxReport> {
  if (!selfTest) selfTest = probeSandbox(mode, env);
  return selfTest;
}

export function decideSandbox(mode: SandboxMode, report: SandboxReport, platform = process.platform): SandboxDecision {
  if (mode === 'off') return { state: { state: 'off' } };
  if (report.available && report.backend === 'bwrap' && platform === 'linux') {
    const decision: SandboxDecision = { state: { state: 'sandboxed', backend: 'bwrap' }, bwrap: report.path };
    if (report.features) decision.features = report.features;
    return decision;
  }
  if (report.available && report.backend === 'sandbox-exec' && platform === 'darwin') {
    return { state: { state: 'sandboxed', backend: 'sandbox-exec' } };
  }
  const reason = report.reason ?? `no sandbox backend for ${platform}`;
  // The case, for the window's language: the probe's; "no backend here" when the report gave no
  // reason; none when it gave only words (the window shows those).
  const gap = report.gap
    ? { gap: report.gap, ...(report.detail ? { detail: report.detail } : {}) }
    : report.reason
      ? {}
      : { gap: 'no_backend' as const, detail: platform };
  const degraded: KernelSandboxState = { state: 'degraded', reason, ...gap };
  if (mode === 'enforce') {
    return {
      state: degraded,
      refuse: `OPENAI4S_SANDBOX=enforce and the kernel sandbox is unavailable: ${reason}. Fix the sandbox or set OPENAI4S_SANDBOX=auto.`,
    };
  }
  return { state: degraded };
}

/**
 * One line for doctor and the CLI, with whether kernels can read the workspace's host
 * path in mountinfo (hidden, or visible and why: turned off, or bindfs missing).
 */
export function describeSandbox(state: KernelSandboxState, hidePaths?: HidePathsDecision): string {
  const note = hidePaths ? `; ${describeHostPaths(hidePaths)}` : '';
  if (state.state === 'sandboxed') return `sandboxed (${state.backend})${note}`;
  if (state.state === 'degraded') return `degraded: ${state.reason}`;
  return 'off';
}
