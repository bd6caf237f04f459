import path from 'node:path';
import type { KernelLanguage } from '../../../src-preload/contract/kernel';
import type { KernelLimits } from '../config/kernelLimits';
import type { KernelCache } from './cacheLayout';
import type { FramePollOptions } from './framePoll';
import type { PathViews } from './pathViews';
import type { SandboxDecision } from './sandbox';
import type { Spawner } from './spawner/spawner';

/** Everything one worker process needs, decided by the supervisor before the spawn. */
export interface WorkerSpec {
  language: KernelLanguage;
  interpreter: string;
  /** Host path of the folder holding python/worker.py and r/worker.R. */
  workersDir: string;
  /** Host path of the workspace (the only persistent writable place). */
  workspace: string;
  /** The read-only kernel cache (font lists), or null while it is not built. */
  cache: KernelCache | null;
  /** Host folder for each unsandboxed (or Seatbelt) generation's own home, temp and caches. */
  tmpRoot: string;
  sandbox: SandboxDecision;
  parentEnv: NodeJS.ProcessEnv;
  startTimeoutMs: number;
  /** Test hook: a different worker script (relative to workersDir). */
  script?: string;
  /** Resource limits (applied under bwrap); absent: none. */
  limits?: KernelLimits;
  /** The supervisor's shared views of host folders (bwrap only; absent: plain binds). */
  views?: PathViews;
  /** Enabled skills' folders, read-only in the kernel (bwrap: under /opt/openai4s/skills/<name>). */
  skills?: SkillMount[];
  /** Starts sandboxes without forking the app (spawner/spawner.ts); absent or not ready: Node's spawn. */
  spawner?: Spawner;
  /** How fd 3 is read right after a host call's answer (framePoll.ts); false: only through the event loop. */
  framePoll?: FramePollOptions | false;
}

/** A skill folder a kernel may read: its name (lower-case letters, digits, hyphens) and host folder. */
export interface SkillMount {
  name: string;
  dir: string;
}

/** The Python worker's source, relative to the workers folder. */
export const PYTHON_WORKER = 'python/worker.py';

/** The worker script, relative to the workers folder. */
export function scriptFor(spec: WorkerSpec): string {
  return spec.script ?? (spec.language === 'python' ? PYTHON_WORKER : 'r/worker.R');
}

/**
 * The interpreter's command line, with the workers folder at `workersRoot`; `bytecode`: the
 * Python worker's cached bytecode to run instead of its source (workerBytecode.ts).
 */
export function commandFor(spec: WorkerSpec, workersRoot: string, bytecode: string | null = null): string[] {
  const file = bytecode ?? path.posix.join(workersRoot, scriptFor(spec));
  // -I: ignore PYTHON* variables and the user site; --vanilla: no profile, no saved workspace.
  return spec.language === 'python' ? [spec.interpreter, '-I', file] : [spec.interpreter, '--vanilla', file];
}
