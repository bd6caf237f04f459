import type { SandboxMode, SandboxReport } from '../../../src-preload/contract/doctor';
import type { KernelEventTopics, KernelLanguage } from '../../../src-preload/contract/kernel';
import type { KernelLimits } from '../config/kernelLimits';
import type { HostCallHandler } from './hostCalls';
import type { CellLimits, ObservedHostCall } from './runCell';
import type { SkillMount } from './workerSpec';

/** What the KernelSupervisor is built with, and what each `execute` may be told besides the code. */

export interface KernelSupervisorOptions {
  dataDir: string;
  processEnv: NodeJS.ProcessEnv;
  /** The sandbox mode, asked at each kernel start (a changed setting applies to the next kernel). */
  sandboxMode: () => SandboxMode;
  host?: HostCallHandler;
  /** Host path of a session's workspace; default `<dataDir>/workspaces/<sessionId>`. */
  workspaceFor?: (sessionId: string) => string;
  limits?: Partial<CellLimits>;
  /** Resource limits per kernel (read when the first kernel starts); default: envs/limits.json with overrides from processEnv. */
  kernelLimits?: KernelLimits | (() => KernelLimits);
  interruptGraceMs?: number;
  startTimeoutMs?: number;
  /** Consecutive start failures after which a slot is dead until restarted. */
  maxStartFailures?: number;
  /** Shut an idle kernel down after this long; 0 keeps it forever. */
  idleShutdownMs?: number;
  /** Languages for which a warm spare worker is kept once a session opens. */
  prewarm?: KernelLanguage[];
  onEvent?: <T extends keyof KernelEventTopics>(topic: T, payload: KernelEventTopics[T]) => void;
  /** The enabled skills' folders, asked at each kernel start: mounted read-only for its cells. */
  skillDirs?: () => SkillMount[] | Promise<SkillMount[]>;
  /** The session's chosen environment for a language, asked at each kernel start (null: the default; issue 18). */
  environmentFor?: (sessionId: string, language: KernelLanguage) => { id: string; interpreter: string } | null;
  /** After a cell's result, how long the end of its output may take before the kernel is taken for stuck (outputEnd.ts). */
  outputEndGraceMs?: number;
  /** Test hooks. */
  sandboxReport?: () => Promise<SandboxReport>;
  scripts?: Partial<Record<KernelLanguage, string>>;
}

/** What `execute` may be told besides the code. */
export interface ExecuteOptions {
  timeoutMs?: number;
  /** Said when the limit is hit: how to raise it. */
  timeLimitHint?: string;
  /** Stop: a cell still waiting for its kernel never starts; a running one is interrupted by the caller. */
  signal?: AbortSignal;
  onOutput?: (stream: 'stdout' | 'stderr', text: string) => void;
  /** Sees each host call of the cell with its answer (issue 25: a user's cell records them for its export). */
  onHostCall?: (call: ObservedHostCall) => void;
  /**
   * Called right after the cell is handed to its kernel process (its frame written), not for
   * a cell that never got one: the main thread only waits while the kernel runs, so
   * bookkeeping done here is off the round trip.
   */
  onSent?: () => void;
  /**
   * A child agent's run (issue 20): the cell runs in that run's own kernel of the session
   * (its own slot and generation, the session's workspace), not in the session's kernel.
   */
  owner?: string;
  /**
   * A look into the kernel (the variables view), not a cell of the session: it takes no cell
   * number, so the session's cells stay numbered 1, 2, 3 however often the view reads
   * (its source is named <cell-0> in the kernel, a name no numbered cell has).
   */
  introspection?: boolean;
}
