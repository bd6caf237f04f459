import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errorMessage } from '../shared/errorMessage';
import { SYSTEM_PATH, findOnPath, isExecutableFile } from '../shared/executables';
import { mountViewAsync, mountsUnder, unmountViewAsync, type FuseTools } from './fuseView';

/**
 * OPENAI4S_SANDBOX_HIDE_PATHS: whether the workspace and the kernel cache reach the bwrap
 * sandbox through a FUSE view (bindfs), so /proc/self/mountinfo names no host path.
 * `auto` (default): the view when bindfs and fusermount work, else plain binds (doctor
 * says which, with the install command). The user's home layout (user name, data root)
 * is private by default; the cost is slower I/O in /workspace (measured on this
 * project's CI machine: reading a large file 4-8x, creating small files 3-6x; see
 * kernel-workers/README.md), which `off` (plain bind mounts) trades back for speed.
 * `on`: a kernel that cannot get the view does not start.
 */
export type HidePathsMode = 'off' | 'auto' | 'on';

export const HIDE_PATHS_VAR = 'OPENAI4S_SANDBOX_HIDE_PATHS';

export function hidePathsMode(env: NodeJS.ProcessEnv): HidePathsMode {
  const value = env[HIDE_PATHS_VAR]?.trim().toLowerCase() || 'auto';
  if (value === 'off' || value === 'auto' || value === 'on') return value;
  throw new Error(`${HIDE_PATHS_VAR} must be off, auto or on (it is "${value}").`);
}

export type HidePathsProbe = { available: true; tools: FuseTools } | { available: false; reason: string };

/** bindfs (OPENAI4S_BINDFS overrides) and fusermount3/fusermount on PATH, and /dev/fuse. */
function findTools(env: NodeJS.ProcessEnv): FuseTools | string {
  const given = env.OPENAI4S_BINDFS?.trim();
  const bindfs = given || findOnPath('bindfs', env, SYSTEM_PATH);
  if (!bindfs) return 'bindfs is not installed (Debian: apt-get install bindfs fuse3)';
  if (!isExecutableFile(bindfs)) return `bindfs at ${bindfs} (OPENAI4S_BINDFS) is not an executable file`;
  const fusermount = findOnPath('fusermount3', env, SYSTEM_PATH) ?? findOnPath('fusermount', env, SYSTEM_PATH);
  if (!fusermount) return 'fusermount3 is not installed (Debian: apt-get install fuse3)';
  if (!fs.existsSync('/dev/fuse')) return '/dev/fuse is missing (FUSE is not available here)';
  return { bindfs, fusermount };
}

/** Mounts a trial view of an empty folder and checks it is really a separate mount (without blocking the event loop). */
export async function probeHidePaths(env: NodeJS.ProcessEnv): Promise<HidePathsProbe> {
  const tools = findTools(env);
  if (typeof tools === 'string') return { available: false, reason: tools };
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'oai4s-fuse-probe-'));
  const point = path.join(dir, 'view');
  try {
    await fs.promises.mkdir(path.join(dir, 'src'));
    await mountViewAsync(tools, path.join(dir, 'src'), point, true);
    const mounted = mountsUnder(dir).includes(point);
    await unmountViewAsync(tools.fusermount, point);
    return mounted ? { available: true, tools } : { available: false, reason: 'bindfs exited without mounting its view' };
  } catch (error) {
    return { available: false, reason: errorMessage(error) };
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

let cached: { key: string; probe: Promise<HidePathsProbe> } | null = null;

/** The probe runs once per app start (per PATH and override), not once per kernel; kernels starting together share it. */
export function hidePathsSelfTest(env: NodeJS.ProcessEnv): Promise<HidePathsProbe> {
  const key = `${env.PATH ?? ''}\0${env.OPENAI4S_BINDFS ?? ''}`;
  if (cached?.key !== key) {
    const probe = probeHidePaths(env);
    cached = { key, probe };
    // A probe that could not even make its temporary folder is tried again by the next kernel.
    probe.catch(() => cached?.probe === probe && (cached = null));
  }
  return cached.probe;
}

/** What a bwrap kernel does about host paths in mountinfo. */
export type HidePathsDecision =
  | { use: true; tools: FuseTools; mode: HidePathsMode }
  | { use: false; mode: HidePathsMode; reason: string; refuse?: string };

/** Rejects with the problem when OPENAI4S_SANDBOX_HIDE_PATHS has a value it does not know. */
export async function decideHidePaths(env: NodeJS.ProcessEnv): Promise<HidePathsDecision> {
  const mode = hidePathsMode(env);
  if (mode === 'off') return { use: false, mode, reason: `${HIDE_PATHS_VAR}=off` };
  const probe = await hidePathsSelfTest(env);
  if (probe.available) return { use: true, tools: probe.tools, mode };
  const decision: HidePathsDecision = { use: false, mode, reason: probe.reason };
  if (mode === 'on') decision.refuse = `${HIDE_PATHS_VAR}=on and the FUSE view of the workspace is unavailable: ${probe.reason}. Install it or set ${HIDE_PATHS_VAR}=auto.`;
  return decision;
}

/** For doctor's sandbox line and the kernel's status. */
export function describeHostPaths(decision: HidePathsDecision): string {
  if (decision.use) return `host paths hidden from /proc/self/mountinfo (bindfs view, ${HIDE_PATHS_VAR}=${decision.mode})`;
  return `workspace host path visible in /proc/self/mountinfo (${decision.reason})`;
}
