import { z } from 'zod';
import { route } from './define';

export type KernelLanguage = 'python' | 'r';

/**
 * Why kernels run without their sandbox here, for the window to say in its language (with
 * `detail`, the system's own words, where there are any): bubblewrap is not installed, it is
 * installed but cannot create namespaces, macOS has no sandbox-exec, or the platform has no
 * sandbox at all.
 */
export type KernelSandboxGap = 'bwrap_missing' | 'bwrap_blocked' | 'sandbox_exec_missing' | 'no_backend';

/**
 * How a generation is confined: sandboxed, degraded (with the reason), or off by choice.
 * `reason` is English (for the model, the CLI and logs); `gap` names the case for the window.
 */
export type KernelSandboxState =
  | { state: 'sandboxed'; backend: 'bwrap' | 'sandbox-exec' }
  | { state: 'degraded'; reason: string; gap?: KernelSandboxGap; detail?: string }
  | { state: 'off' };

export interface KernelUsage {
  wallMs: number;
  cpuMs: number;
  /** Peak resident set of the worker process so far, in KiB; null where the OS does not say. */
  peakRssKb: number | null;
}

export interface KernelCellError {
  ename: string;
  evalue: string;
  traceback: string;
  /** The line of the cell where it failed, when the failing frame is in the cell. */
  line: number | null;
}

/** A rich output of a cell: a value's representation, a table, or a figure saved by the host. */
export interface KernelDisplay {
  /** mime type -> text (images are not inlined: they are saved and named by `path`). */
  data: Record<string, string>;
  /** Workspace-relative path of a saved image (a matplotlib figure, an R plot). */
  path?: string;
  bytes?: number;
  /** The figure's vector forms (matplotlib SVG and PDF, R SVG), saved beside the PNG (issue 25). */
  svgPath?: string;
  pdfPath?: string;
}

/**
 * How a kernel's process ended, for the window to say in its own language. The English
 * `reason` beside it is for the model, the CLI and logs; results recorded before it lack it.
 */
export type KernelExitCause =
  | { kind: 'signal'; signal: string }
  | { kind: 'exit'; code: number | null }
  | { kind: 'spawn_failed'; file: string; message: string }
  | { kind: 'interrupt_unheeded'; graceMs: number }
  /** Killed by the OOM killer for the memory limit over all its processes (a memory cgroup). */
  | { kind: 'out_of_memory'; limitMiB: number }
  /** Stopped by the app: it sent one protocol message over the app's limit (a cell writing fd 3 itself). */
  | { kind: 'frame_too_large'; limitMiB: number };

/** Why a slot has no running generation, or may not start one (its status's `reason`, by case). */
export type KernelSlotCause =
  | { kind: 'ended'; generation: string; exit: KernelExitCause }
  | { kind: 'idle_shutdown'; idleSeconds: number }
  | { kind: 'restarted'; generation: string }
  | { kind: 'crash_loop'; failures: number; lastError: string }
  | { kind: 'session_closed' };

export interface KernelDeath {
  /** In words: "killed by SIGKILL", "exited with code 1", "interrupt did not stop it". */
  reason: string;
  /** What the user lost, said plainly. */
  lost: string;
  /** The same by case, for the window's language. */
  cause?: KernelExitCause;
}

export interface KernelCellResult {
  sessionId: string;
  language: KernelLanguage;
  generation: string;
  cellId: string;
  /** 1-based number of the cell within its generation; tracebacks name `<cell-N>`. */
  cellNumber: number;
  status: 'ok' | 'error' | 'interrupted' | 'died';
  stdout: string;
  stderr: string;
  displays: KernelDisplay[];
  error?: KernelCellError;
  usage?: KernelUsage;
  /** True when output went over the cap; stdout/stderr then end with a note saying how much was dropped. */
  truncated: boolean;
  sandbox: KernelSandboxState;
  died?: KernelDeath;
  /** Set when the cell ran into its wall-clock limit and was stopped for it. */
  timeLimit?: KernelTimeLimit;
}

export interface KernelTimeLimit {
  /** The limit in force when it ran out (the first limit plus every extension). */
  limitMs: number;
  /** For the user and the model: the limit was hit, and how to raise it. */
  message: string;
}

/** The answer to `kernel.extendCellLimit`. */
export interface KernelLimitExtension {
  /** False when no cell of that kernel is running under a limit (it ended, or it is already being stopped). */
  extended: boolean;
  /** The running cell's limit now (from its start), and when it runs out. */
  limitMs?: number;
  endsAt?: string;
}

export type KernelState = 'none' | 'starting' | 'idle' | 'busy' | 'dead';

export interface KernelSlotStatus {
  language: KernelLanguage;
  state: KernelState;
  generation: string | null;
  sandbox: KernelSandboxState | null;
  startedAt: string | null;
  cells: number;
  /** Why the slot is dead or what happened to the last generation. */
  reason?: string;
  /** The same by case, for the window's language. */
  cause?: KernelSlotCause;
}

/** Who holds a session's kernels (issue 25): an agent turn, a user's cell, an environment switch. */
export interface KernelLeaseOwner {
  kind: 'agent' | 'user' | 'environment';
  /** The run, the user cell, the environment. */
  id: string;
  /** In words, for the one waiting: "the agent's run", "your cell (Python)". */
  label: string;
}

export interface KernelLeaseView {
  holder: KernelLeaseOwner | null;
  /** When the holder got it. */
  since: string | null;
  /** In the order they will get it. */
  waiting: KernelLeaseOwner[];
}

/** What `kernel.execute` answers: the cell's result, and the version it was recorded as (see notebook.ts). */
export type UserCellRun = KernelCellResult & { userCell: { id: string; cellKey: string; version: number } | null };

export interface KernelStatus {
  sessionId: string;
  slots: KernelSlotStatus[];
  /** Who holds the session's kernels and who waits (issue 25): agent turns, user cells, environment switches take turns. */
  lease?: KernelLeaseView;
}

/** Streamed while a cell runs (coalesced: a few events per second at most per stream). */
export interface KernelOutputEvent {
  sessionId: string;
  language: KernelLanguage;
  generation: string;
  cellId: string;
  stream: 'stdout' | 'stderr';
  text: string;
}

export interface KernelLifecycleEvent {
  sessionId: string;
  language: KernelLanguage;
  generation: string;
  kind: 'started' | 'died' | 'restarted' | 'idle_shutdown' | 'session_closed';
  sandbox?: KernelSandboxState;
  /** On start: the environment the generation runs in (its id from env.list, and the interpreter). */
  environment?: { id: string; interpreter: string };
  reason?: string;
}

export interface KernelEventTopics {
  'kernel.output': KernelOutputEvent;
  'kernel.lifecycle': KernelLifecycleEvent;
}

const sessionId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, 'a session id is 1-128 letters, digits, "_" or "-"');
const language = z.enum(['python', 'r']);

export const kernelRoutes = {
  /**
   * A user's cell in the session's kernel (the agent's cells go through the engine): it waits
   * for the session's kernel lease and is recorded as a new version of notebook cell `cellKey`
   * (a new cell without it).
   */
  'kernel.execute': route<UserCellRun>()(
    z
      .object({
        sessionId,
        language,
        code: z.string().max(1_000_000),
        timeoutMs: z.number().int().min(100).max(24 * 3600_000).optional(),
        cellKey: z.string().regex(/^uc_[A-Za-z0-9-]{1,64}$/).optional(),
      })
      .strict(),
  ),
  'kernel.interrupt': route<{ interrupted: boolean }>()(z.object({ sessionId, language }).strict()),
  /** Gives the running cell of that kernel more time before its wall-clock limit stops it. */
  'kernel.extendCellLimit': route<KernelLimitExtension>()(
    z.object({ sessionId, language, extendMs: z.number().int().min(1000).max(24 * 3600_000) }).strict(),
  ),
  /**
   * A new generation. Refused (`conflict`, naming the holder) while the agent's run, a cell or
   * an environment switch holds the session's kernel lease; it holds the lease while it restarts.
   */
  'kernel.restart': route<KernelSlotStatus>()(z.object({ sessionId, language }).strict()),
  'kernel.status': route<KernelStatus>()(z.object({ sessionId }).strict()),
};
