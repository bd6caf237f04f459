import fs from 'node:fs';
import path from 'node:path';
import type { SandboxMode, SandboxReport } from '../../../src-preload/contract/doctor';
import { AppError } from '../../../src-preload/contract/errors';
import type {
  KernelCellResult,
  KernelEventTopics,
  KernelLanguage,
  KernelLimitExtension,
  KernelSlotStatus,
  KernelStatus,
} from '../../../src-preload/contract/kernel';
import { appRoot } from '../config/appPaths';
import { chooseInterpreter, readKernelEnv } from '../config/kernelEnvs';
import { kernelLimitsFromEnv, type KernelLimits } from '../config/kernelLimits';
import { unavailableHostCalls, type HostCallHandler } from './hostCalls';
import { ensureKernelCache, removeLegacySharedCache, type KernelCache } from './kernelCache';
import { KernelProcess, type WorkerSpec } from './kernelProcess';
import type { CellDeadline } from './cellDeadline';
import { DEFAULT_LIMITS, runCell, type CellLimits } from './runCell';
import { decideSandbox, sandboxSelfTest, type SandboxDecision } from './sandbox';
import { adoptWorkspace, removeSpareDir, spareDir, warmSpare, type Spare } from './spares';

export const LANGUAGES: readonly KernelLanguage[] = ['python', 'r'];

/** A cell stopped before its kernel was ready: nothing of it ran. */
export class CellNotStartedError extends Error {
  constructor() {
    super('The cell was stopped before its kernel was ready; none of it ran.');
    this.name = 'CellNotStartedError';
  }
}

const ENV_OF: Record<KernelLanguage, { id: string; overrideVar: string; command: string; label: string }> = {
  python: { id: 'python-default', overrideVar: 'OPENAI4S_PYTHON', command: 'python3', label: 'Python' },
  r: { id: 'r-default', overrideVar: 'OPENAI4S_RSCRIPT', command: 'Rscript', label: 'R' },
};

export interface KernelSupervisorOptions {
  dataDir: string;
  processEnv: NodeJS.ProcessEnv;
  sandboxMode: SandboxMode;
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
  /** Test hooks. */
  sandboxReport?: () => Promise<SandboxReport>;
  scripts?: Partial<Record<KernelLanguage, string>>;
}

interface Slot {
  language: KernelLanguage;
  proc: KernelProcess | null;
  chain: Promise<unknown>;
  cells: number;
  busy: boolean;
  startFailures: number;
  dead: string | null;
  reason?: string;
  interrupt: ((graceMs: number) => void) | null;
  /** The running cell's wall-clock limit, when it has one. */
  deadline?: CellDeadline | null;
  idleTimer: NodeJS.Timeout | null;
  starting: boolean;
  /** Set when its session was closed (deleted): nothing may start in it again. */
  closed?: boolean;
}

const SESSION_CLOSED = 'The session was closed (deleted); its kernels were stopped.';

function emptySlot(language: KernelLanguage): Slot {
  return { language, proc: null, chain: Promise.resolve(), cells: 0, busy: false, startFailures: 0, dead: null, interrupt: null, idleTimer: null, starting: false };
}

/**
 * One lazy Python and one lazy R slot per session (DESIGN.md, Kernels). Each spawn is a
 * generation; cells of a slot run one at a time; a death is detected and explained; a
 * slot that cannot start N times in a row is dead until restarted; no child outlives
 * the supervisor (close, and a synchronous kill on process exit).
 */
export class KernelSupervisor {
  private sessions = new Map<string, Map<KernelLanguage, Slot>>();
  private spares = new Map<KernelLanguage, Spare>();
  private sparesStarting = new Map<KernelLanguage, Promise<void>>();
  private live = new Set<KernelProcess>();
  /** Kernel caches by interpreter and layout: built (or found fresh) once per supervisor. */
  private caches = new Map<string, { promise: Promise<KernelCache | null>; value?: KernelCache | null }>();
  private closed = false;
  private readonly limits: CellLimits;
  private readonly host: HostCallHandler;
  private readonly onExit = () => {
    for (const proc of this.live) proc.kill();
  };

  constructor(private readonly opts: KernelSupervisorOptions) {
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.host = opts.host ?? unavailableHostCalls;
    process.on('exit', this.onExit);
  }

  get workspacesRoot(): string {
    return path.join(this.opts.dataDir, 'workspaces');
  }

  workspaceFor(sessionId: string): string {
    return this.opts.workspaceFor?.(sessionId) ?? path.join(this.workspacesRoot, sessionId);
  }

  async sandbox(): Promise<SandboxDecision> {
    const report = await (this.opts.sandboxReport?.() ?? sandboxSelfTest(this.opts.sandboxMode, this.opts.processEnv));
    return decideSandbox(this.opts.sandboxMode, report);
  }

  private slot(sessionId: string, language: KernelLanguage): Slot {
    let slots = this.sessions.get(sessionId);
    if (!slots) this.sessions.set(sessionId, (slots = new Map()));
    let slot = slots.get(language);
    if (!slot) {
      slot = emptySlot(language);
      slots.set(language, slot);
    }
    return slot;
  }

  /**
   * The read-only kernel cache for a Python interpreter: built by a trusted step (the
   * imports only) the first time it is needed after the app starts, unless a fresh one
   * exists. `wait` false answers at once: a kernel started meanwhile runs without it.
   */
  private kernelCache(interpreter: string, sandbox: SandboxDecision, wait: boolean): Promise<KernelCache | null> | KernelCache | null {
    const key = `${interpreter}\0${sandbox.state.state}`;
    let entry = this.caches.get(key);
    if (!entry) {
      removeLegacySharedCache(this.opts.dataDir);
      const promise = ensureKernelCache({
        root: path.join(this.opts.dataDir, 'kernel-cache-ro'),
        interpreter,
        workersDir: this.workersDir,
        sandbox,
        parentEnv: this.opts.processEnv,
      }).catch(() => null);
      const created: { promise: Promise<KernelCache | null>; value?: KernelCache | null } = { promise };
      void promise.then((value) => (created.value = value));
      this.caches.set(key, (entry = created));
    }
    if (entry.value !== undefined) return entry.value;
    return wait ? entry.promise : null;
  }

  /** Builds (or finds) the Python kernel cache now; resolves to its folder, or null. */
  async prepareKernelCache(): Promise<string | null> {
    const spec = await this.prepareSpec('python', null, true);
    return spec.cache?.dir ?? null;
  }

  private get workersDir(): string {
    return path.join(appRoot(this.opts.processEnv), 'kernel-workers');
  }

  /** Everything a worker needs, decided here: sandbox (self-test cached), interpreter, folders. */
  private async prepareSpec(language: KernelLanguage, workspace: string | null, waitForCache = false): Promise<WorkerSpec> {
    if (this.closed) throw new AppError('unavailable', 'The kernel supervisor is closed.');
    const sandbox = await this.sandbox();
    if (sandbox.refuse) throw new AppError('unavailable', sandbox.refuse);
    const env = ENV_OF[language];
    const choice = chooseInterpreter(readKernelEnv(env.id), env.overrideVar, env.command, this.opts.processEnv);
    if (!choice.path) throw new AppError('not_configured', `No ${env.label} interpreter: ${choice.reason}`);
    const cache = language === 'python' ? await this.kernelCache(choice.path, sandbox, waitForCache) : null;
    if (workspace) fs.mkdirSync(workspace, { recursive: true, mode: 0o700 });
    const spec: WorkerSpec = {
      language,
      interpreter: choice.path,
      workersDir: this.workersDir,
      workspace: workspace ?? '',
      cache,
      tmpRoot: path.join(this.opts.dataDir, 'kernel-tmp'),
      sandbox,
      parentEnv: this.opts.processEnv,
      startTimeoutMs: this.opts.startTimeoutMs ?? 20_000,
    };
    const script = this.opts.scripts?.[language];
    if (script) spec.script = script;
    spec.limits = this.resourceLimits();
    return spec;
  }

  private resolvedLimits: KernelLimits | null = null;

  private resourceLimits(): KernelLimits {
    if (!this.resolvedLimits) {
      try {
        const given = this.opts.kernelLimits;
        this.resolvedLimits = typeof given === 'function' ? given() : (given ?? kernelLimitsFromEnv(this.opts.processEnv, appRoot(this.opts.processEnv)).values);
      } catch (error) {
        throw new AppError('not_configured', (error as Error).message);
      }
    }
    return this.resolvedLimits;
  }

  private launch(spec: WorkerSpec): KernelProcess {
    const proc = new KernelProcess(spec);
    this.live.add(proc);
    void proc.exited.then(() => this.live.delete(proc));
    return proc;
  }

  /** A session opened: keep a warm spare ready for its first cell (DESIGN.md, Kernels). */
  openSession(_sessionId: string): void {
    for (const language of this.opts.prewarm ?? []) void this.ensureSpare(language);
  }

  /** Starts a pre-warmed spare worker for `language` unless one is alive (or on its way). */
  ensureSpare(language: KernelLanguage): Promise<void> {
    let pending = this.sparesStarting.get(language);
    if (!pending) {
      pending = this.startSpare(language).finally(() => this.sparesStarting.delete(language));
      this.sparesStarting.set(language, pending);
    }
    return pending;
  }

  /** Resolves once every spare being started has finished its imports (for measurements). */
  async sparesSettled(): Promise<void> {
    await Promise.all([...this.sparesStarting.values()].map((p) => p.catch(() => {})));
    await Promise.all([...this.spares.values()].map((spare) => spare.warm));
  }

  private async startSpare(language: KernelLanguage): Promise<void> {
    if (this.closed || this.spares.get(language)?.proc.alive) return;
    const dir = spareDir(this.workspacesRoot);
    let spec: WorkerSpec;
    try {
      // A spare is started in the background anyway: let it wait for the cache so its
      // science imports (and the session's first cell) use it.
      spec = await this.prepareSpec(language, dir, true);
    } catch {
      removeSpareDir(dir);
      return; // a spare is an optimisation; the cold path reports the error to the user
    }
    if (this.closed || this.spares.get(language)?.proc.alive) return removeSpareDir(dir);
    const proc = this.launch(spec);
    const spare: Spare = { proc, dir, warm: warmSpare(proc, language) };
    this.spares.set(language, spare);
    void proc.exited.then(() => {
      if (this.spares.get(language) === spare) {
        this.spares.delete(language);
        removeSpareDir(dir);
      }
    });
  }

  private async takeSpare(language: KernelLanguage, workspace: string): Promise<KernelProcess | null> {
    // A spare still being prepared (waiting for the kernel cache) is worth waiting for,
    // as is one still importing: both were started ahead of this cell.
    await this.sparesStarting.get(language)?.catch(() => {});
    const spare = this.spares.get(language);
    if (!spare || !spare.proc.alive) return null;
    this.spares.delete(language);
    await spare.warm;
    if (!spare.proc.alive) return null;
    try {
      adoptWorkspace(spare, workspace);
    } catch {
      spare.proc.kill();
      return null;
    }
    spare.proc.spec.workspace = workspace;
    // Replace it after a pause, so warming the next one does not compete with this cell.
    setTimeout(() => void this.ensureSpare(language), 2_000).unref();
    return spare.proc;
  }

  private async ensureProcess(sessionId: string, slot: Slot): Promise<KernelProcess> {
    if (slot.proc?.alive) return slot.proc;
    const label = ENV_OF[slot.language].label;
    const maxFailures = this.opts.maxStartFailures ?? 3;
    const workspace = this.workspaceFor(sessionId);
    slot.starting = true;
    try {
      const spare = await this.takeSpare(slot.language, workspace);
      if (spare) return this.adopt(sessionId, slot, spare);
      let lastError = '';
      while (slot.startFailures < maxFailures) {
        const proc = this.launch(await this.prepareSpec(slot.language, workspace));
        try {
          await proc.ready;
          slot.startFailures = 0;
          return this.adopt(sessionId, slot, proc);
        } catch (error) {
          proc.kill();
          slot.startFailures++;
          lastError = (error as Error).message;
        }
      }
      slot.dead = `The ${label} kernel failed to start ${maxFailures} times in a row, so it is stopped (crash loop). Last error: ${lastError || slot.reason || 'unknown'}. Fix the cause, then restart the kernel.`;
      throw new AppError('unavailable', slot.dead);
    } finally {
      slot.starting = false;
    }
  }

  private adopt(sessionId: string, slot: Slot, proc: KernelProcess): KernelProcess {
    slot.proc = proc;
    slot.cells = 0;
    this.emit('kernel.lifecycle', { sessionId, language: slot.language, generation: proc.generation, kind: 'started', sandbox: proc.sandboxState });
    void proc.exited.then((info) => {
      if (slot.proc !== proc) return;
      slot.proc = null;
      slot.reason = `generation ${proc.generation.slice(0, 8)} ${info.reason}; its variables are gone`;
      this.emit('kernel.lifecycle', { sessionId, language: slot.language, generation: proc.generation, kind: 'died', reason: info.reason });
    });
    return proc;
  }

  private emit<T extends keyof KernelEventTopics>(topic: T, payload: KernelEventTopics[T]): void {
    try {
      this.opts.onEvent?.(topic, payload);
    } catch {
      // a listener's failure is not the kernel's
    }
  }

  /** Runs a cell in the session's kernel of that language, starting it if needed. */
  execute(
    sessionId: string,
    language: KernelLanguage,
    code: string,
    options: {
      timeoutMs?: number;
      /** Said when the limit is hit: how to raise it. */
      timeLimitHint?: string;
      /** Stop: a cell still waiting for its kernel never starts; a running one is interrupted by the caller. */
      signal?: AbortSignal;
      onOutput?: (stream: 'stdout' | 'stderr', text: string) => void;
    } = {},
  ): Promise<KernelCellResult> {
    const slot = this.slot(sessionId, language);
    if (slot.dead) return Promise.reject(new AppError('unavailable', slot.dead));
    const run = async (): Promise<KernelCellResult> => {
      if (slot.dead) throw new AppError('unavailable', slot.dead);
      const proc = await this.ensureProcess(sessionId, slot);
      // The session was closed while its kernel started: that kernel must not outlive it.
      if (slot.closed) {
        proc.kill();
        throw new AppError('unavailable', slot.dead ?? SESSION_CLOSED);
      }
      // Stopped while it waited for the kernel: an interrupt then finds no cell to stop.
      if (options.signal?.aborted) throw new CellNotStartedError();
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      slot.busy = true;
      try {
        const result = await runCell(proc, {
          sessionId,
          language,
          code,
          cellNumber: ++slot.cells,
          limits: this.limits,
          host: this.host,
          interruptGraceMs: this.opts.interruptGraceMs ?? 2_000,
          ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
          ...(options.timeLimitHint ? { timeLimitHint: options.timeLimitHint } : {}),
          setInterrupt: (fn) => (slot.interrupt = fn),
          setDeadline: (deadline) => (slot.deadline = deadline),
          onOutput: (stream, text, cellId) => {
            options.onOutput?.(stream, text);
            this.emit('kernel.output', { sessionId, language, generation: proc.generation, cellId, stream, text });
          },
        });
        if (result.died) {
          await proc.exited;
          if (slot.proc === proc) slot.proc = null;
          slot.reason = result.died.reason;
        }
        return result;
      } finally {
        slot.busy = false;
        slot.interrupt = null;
        this.armIdle(sessionId, slot);
      }
    };
    const next = slot.chain.then(run, run);
    slot.chain = next.catch(() => {});
    return next;
  }

  private armIdle(sessionId: string, slot: Slot): void {
    const ms = this.opts.idleShutdownMs ?? 30 * 60_000;
    if (!ms || !slot.proc) return;
    const proc = slot.proc;
    slot.idleTimer = setTimeout(() => {
      if (slot.busy || slot.proc !== proc) return;
      slot.proc = null;
      slot.reason = `shut down after ${Math.round(ms / 1000)} s idle; its variables are gone`;
      void proc.shutdown();
      this.emit('kernel.lifecycle', { sessionId, language: slot.language, generation: proc.generation, kind: 'idle_shutdown' });
    }, ms);
    slot.idleTimer.unref();
  }

  /** Gives the running cell more time before its wall-clock limit stops it. */
  extendCellLimit(sessionId: string, language: KernelLanguage, extendMs: number): KernelLimitExtension {
    const deadline = this.sessions.get(sessionId)?.get(language)?.deadline;
    if (!deadline?.extend(extendMs)) return { extended: false };
    return { extended: true, limitMs: deadline.limitMs, endsAt: deadline.endsAt.toISOString() };
  }

  /** Interrupts the running cell (SIGINT in the worker, a kill after the bound). */
  interrupt(sessionId: string, language: KernelLanguage): boolean {
    const slot = this.sessions.get(sessionId)?.get(language);
    if (!slot?.interrupt) return false;
    slot.interrupt(this.opts.interruptGraceMs ?? 2_000);
    return true;
  }

  /** Ends the current generation (if any) and clears a crash-loop stop; the next cell starts fresh. */
  async restart(sessionId: string, language: KernelLanguage): Promise<KernelSlotStatus> {
    const slot = this.slot(sessionId, language);
    const proc = slot.proc;
    slot.proc = null;
    slot.dead = null;
    slot.startFailures = 0;
    slot.cells = 0;
    if (proc) {
      slot.reason = `restarted; generation ${proc.generation.slice(0, 8)} and its variables are gone`;
      await proc.shutdown(500);
      this.emit('kernel.lifecycle', { sessionId, language, generation: proc.generation, kind: 'restarted' });
    }
    return this.slotStatus(slot);
  }

  private slotStatus(slot: Slot): KernelSlotStatus {
    const proc = slot.proc?.alive ? slot.proc : null;
    const status: KernelSlotStatus = {
      language: slot.language,
      state: slot.dead ? 'dead' : slot.starting ? 'starting' : !proc ? 'none' : slot.busy ? 'busy' : 'idle',
      generation: proc?.generation ?? null,
      sandbox: proc?.sandboxState ?? null,
      startedAt: proc?.startedAt.toISOString() ?? null,
      cells: proc ? slot.cells : 0,
    };
    const reason = slot.dead ?? slot.reason;
    if (reason) status.reason = reason;
    return status;
  }

  status(sessionId: string): KernelStatus {
    // Read-only: asking about a session must not create slots for it (they would never be released).
    const slots = this.sessions.get(sessionId);
    return { sessionId, slots: LANGUAGES.map((language) => this.slotStatus(slots?.get(language) ?? emptySlot(language))) };
  }

  /**
   * The session is gone (deleted): its kernels stop now rather than at the idle timeout,
   * cells still waiting in its slots are refused, and its slots are released. Resolves
   * once every kernel of the session has exited.
   */
  async closeSession(sessionId: string): Promise<void> {
    const slots = this.sessions.get(sessionId);
    if (!slots) return;
    this.sessions.delete(sessionId);
    const stopping: Promise<unknown>[] = [];
    for (const slot of slots.values()) {
      slot.closed = true;
      slot.dead = SESSION_CLOSED;
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      slot.idleTimer = null;
      slot.interrupt = null;
      slot.deadline = null;
      const proc = slot.proc;
      slot.proc = null;
      if (!proc) continue;
      this.emit('kernel.lifecycle', { sessionId, language: slot.language, generation: proc.generation, kind: 'session_closed' });
      stopping.push(proc.shutdown(300));
    }
    await Promise.all(stopping);
  }

  /** Process-group ids of the session's running kernels (diagnostics and the lifecycle test). */
  processGroups(sessionId: string): number[] {
    const slots = this.sessions.get(sessionId);
    return [...(slots?.values() ?? [])].flatMap((slot) => (slot.proc?.alive && slot.proc.pid ? [slot.proc.pid] : []));
  }

  /** How many entries the per-session tables hold (diagnostics and the lifecycle test). */
  sizes(): { sessions: number; liveProcesses: number } {
    return { sessions: this.sessions.size, liveProcesses: this.live.size };
  }

  /** Stops every worker and spare; called by Core.close(). */
  async close(): Promise<void> {
    this.closed = true;
    process.off('exit', this.onExit);
    const all = [...this.live];
    for (const slots of this.sessions.values()) for (const slot of slots.values()) if (slot.idleTimer) clearTimeout(slot.idleTimer);
    await Promise.all(all.map((proc) => proc.shutdown(300)));
    for (const spare of this.spares.values()) removeSpareDir(spare.dir);
    this.spares.clear();
    // A cache build still running writes into the data root: let it finish (bounded by its
    // own timeout) so nothing is left half-written and nobody deletes the root under it.
    await Promise.allSettled([...this.caches.values()].map((entry) => entry.promise));
  }
}
