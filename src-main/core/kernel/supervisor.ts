import path from 'node:path';
import { AppError } from '../../../src-preload/contract/errors';
import type { KernelCellResult, KernelEventTopics, KernelLanguage, KernelLimitExtension, KernelSlotStatus, KernelStatus } from '../../../src-preload/contract/kernel';
import { KERNEL_ENVS, kernelInterpreter } from '../config/kernelEnvs';
import { SYSTEM_PATH, findOnPath } from '../shared/executables';
import { unavailableHostCalls, type HostCallHandler } from './hostCalls';
import { KernelLease } from './kernelLease';
import { KernelProcess, type WorkerSpec } from './kernelProcess';
import { PathViews } from './pathViews';
import { armIdleShutdown, ensureSlotProcess, forgetStuckGeneration, resetForRestart } from './restartPolicy';
import { DEFAULT_LIMITS, runCell, type CellLimits } from './runCell';
import type { SandboxDecision } from './sandbox';
import { sessionStatus, slotStatus } from './slotStatus';
import { closeSlot, slotIn, type Slot, type SlotTable } from './slots';
import { noteSlotEnded, slotCauseText } from './slotCause';
import { SparePool } from './spares';
import { Spawner } from './spawner/spawner';
import { WorkerSetup } from './workerSetup';
import type { ExecuteOptions, KernelSupervisorOptions } from './supervisorOptions';

export { LANGUAGES } from './slotStatus';
export type { ExecuteOptions, KernelSupervisorOptions } from './supervisorOptions';

/** A cell stopped before its kernel was ready: nothing of it ran. */
export class CellNotStartedError extends Error {
  constructor() {
    super('The cell was stopped before its kernel was ready; none of it ran.');
    this.name = 'CellNotStartedError';
  }
}

/**
 * One lazy Python and one lazy R slot per session (DESIGN.md, Kernels). Each spawn is a
 * generation; cells of a slot run one at a time; a death is detected and explained; a
 * slot that cannot start N times in a row is dead until restarted (restartPolicy.ts);
 * no child outlives the supervisor (close, and a synchronous kill on process exit).
 * Workers are specified by WorkerSetup and pre-warmed by the SparePool.
 */
export class KernelSupervisor {
  /** Who holds each session's kernels: agent turns, user cells, environment switches in FIFO order (issue 25). */
  readonly lease = new KernelLease();
  private sessions: SlotTable = new Map();
  /** Child agents' own kernels, by owner (run id), and the session each belongs to. */
  private owned: SlotTable = new Map();
  private ownerSession = new Map<string, string>();
  private live = new Set<KernelProcess>();
  /** Workers whose launch (mounts, protected names) is under way: close() waits for them. */
  private launching = new Set<Promise<KernelProcess>>();
  private closed = false;
  private readonly limits: CellLimits;
  private readonly host: HostCallHandler;
  private readonly setup: WorkerSetup;
  private readonly spares: SparePool;
  /** FUSE views of workspaces and the cache (OPENAI4S_SANDBOX_HIDE_PATHS), shared by kernels. */
  private readonly views: PathViews;
  /** Starts sandboxes and FUSE views without forking the app (spawner/spawner.ts); made on first use. */
  private spawnerProcess: Spawner | undefined;
  private readonly onExit = () => {
    for (const proc of this.live) proc.kill();
    this.views.closeAll();
  };

  constructor(private readonly opts: KernelSupervisorOptions) {
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.host = opts.host ?? unavailableHostCalls;
    this.views = new PathViews(path.join(opts.dataDir, 'run', 'mnt'), () => this.spawner());
    // Views left mounted by an app that was killed (kill -9) are unmounted now.
    this.views.cleanStale(findOnPath('fusermount3', opts.processEnv, SYSTEM_PATH) ?? findOnPath('fusermount', opts.processEnv, SYSTEM_PATH));
    this.setup = new WorkerSetup({
      views: this.views,
      spawner: () => this.spawner(),
      dataDir: opts.dataDir,
      processEnv: opts.processEnv,
      sandboxMode: opts.sandboxMode,
      ...(opts.kernelLimits ? { kernelLimits: opts.kernelLimits } : {}),
      ...(opts.startTimeoutMs !== undefined ? { startTimeoutMs: opts.startTimeoutMs } : {}),
      ...(opts.sandboxReport ? { sandboxReport: opts.sandboxReport } : {}),
      ...(opts.scripts ? { scripts: opts.scripts } : {}),
      ...(opts.skillDirs ? { skillDirs: opts.skillDirs } : {}),
    });
    this.spares = new SparePool({
      workspacesRoot: this.workspacesRoot,
      prepare: (language, dir) => this.prepareSpec(language, dir, true),
      launch: (spec) => this.launch(spec),
      closed: () => this.closed,
      views: this.views,
    });
    process.on('exit', this.onExit);
  }

  /** The spawner, started the first time a sandboxed kernel is prepared (Linux); it runs until close. */
  private spawner(): Spawner | undefined {
    if (this.closed || process.platform !== 'linux') return undefined;
    if (!this.spawnerProcess) {
      let python: string | null = null;
      try {
        python = kernelInterpreter('python', this.opts.processEnv).choice.path;
      } catch {
        // No interpreter setting readable: Node's spawn it is.
      }
      this.spawnerProcess = new Spawner(python);
    }
    return this.spawnerProcess;
  }

  get workspacesRoot(): string {
    return path.join(this.opts.dataDir, 'workspaces');
  }

  workspaceFor(sessionId: string): string {
    return this.opts.workspaceFor?.(sessionId) ?? path.join(this.workspacesRoot, sessionId);
  }

  sandbox(): Promise<SandboxDecision> {
    return this.setup.sandbox();
  }

  /** Builds (or finds) the Python kernel cache now; resolves to its folder, or null. */
  async prepareKernelCache(): Promise<string | null> {
    const spec = await this.prepareSpec('python', null, true);
    return spec.cache?.dir ?? null;
  }

  private prepareSpec(language: KernelLanguage, workspace: string | null, waitForCache = false, interpreter?: string): Promise<WorkerSpec> {
    if (this.closed) return Promise.reject(new AppError('unavailable', 'The kernel supervisor is closed.'));
    return this.setup.prepare(language, workspace, waitForCache, interpreter);
  }

  private async launch(spec: WorkerSpec): Promise<KernelProcess> {
    const starting = KernelProcess.start(spec);
    this.launching.add(starting);
    let proc: KernelProcess;
    try {
      proc = await starting;
    } finally {
      this.launching.delete(starting);
    }
    this.live.add(proc);
    // Started after close() took its list of workers: stopped here.
    if (this.closed) void proc.shutdown(300);
    void proc.exited.then(() => this.live.delete(proc));
    return proc;
  }

  /** A session opened: keep a warm spare ready for its first cell (DESIGN.md, Kernels). */
  openSession(_sessionId: string): void {
    for (const language of this.opts.prewarm ?? []) void this.ensureSpare(language);
  }

  /** Starts a pre-warmed spare worker for `language` unless one is alive (or on its way). */
  ensureSpare(language: KernelLanguage): Promise<void> {
    return this.spares.ensure(language);
  }

  /** Resolves once every spare being started has finished its imports (for measurements). */
  sparesSettled(): Promise<void> {
    return this.spares.settled();
  }

  private ensureProcess(sessionId: string, slot: Slot): Promise<KernelProcess> {
    // The common case, a live kernel: no start to plan (the environment lookup reads the ledger).
    if (slot.proc?.alive) return Promise.resolve(slot.proc);
    const workspace = this.workspaceFor(sessionId);
    // A session that chose an environment starts its own worker (spares run the default interpreter).
    const chosen = this.opts.environmentFor?.(sessionId, slot.language) ?? null;
    return ensureSlotProcess(slot, {
      maxFailures: this.opts.maxStartFailures ?? 3,
      takeSpare: () => (chosen ? Promise.resolve(null) : this.spares.take(slot.language, workspace)),
      launch: async () => await this.launch(await this.prepareSpec(slot.language, workspace, false, chosen?.interpreter)),
      adopt: (proc) => this.adopt(sessionId, slot, proc, chosen?.id ?? KERNEL_ENVS[slot.language].id),
    });
  }

  private adopt(sessionId: string, slot: Slot, proc: KernelProcess, environment: string): KernelProcess {
    slot.proc = proc;
    slot.cells = 0;
    this.emit('kernel.lifecycle', {
      sessionId,
      language: slot.language,
      generation: proc.generation,
      kind: 'started',
      sandbox: proc.sandboxState,
      environment: { id: environment, interpreter: proc.spec.interpreter },
    });
    // Recorded as soon as the end is known: a cell may start a new generation before the
    // old one's mounts are released, and its panel must still say why the variables went.
    void proc.ended.then((info) => {
      if (slot.proc !== proc) return;
      slot.proc = null;
      noteSlotEnded(slot, { kind: 'ended', generation: proc.generation, exit: info.cause });
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
  execute(sessionId: string, language: KernelLanguage, code: string, options: ExecuteOptions = {}): Promise<KernelCellResult> {
    if (options.owner) this.ownerSession.set(options.owner, sessionId);
    const slot = options.owner ? slotIn(this.owned, options.owner, language) : slotIn(this.sessions, sessionId, language);
    if (slot.dead) return Promise.reject(new AppError('unavailable', slot.dead));
    const run = async (): Promise<KernelCellResult> => {
      if (slot.dead) throw new AppError('unavailable', slot.dead);
      const proc = await this.ensureProcess(sessionId, slot);
      // The session was closed while its kernel started: that kernel must not outlive it.
      if (slot.closed) {
        proc.kill();
        throw new AppError('unavailable', slot.dead ?? slotCauseText(language, { kind: 'session_closed' }));
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
          cellNumber: options.introspection ? 0 : ++slot.cells,
          limits: this.limits,
          host: this.host,
          ...(options.owner ? { owner: options.owner } : {}),
          interruptGraceMs: this.opts.interruptGraceMs ?? 2_000,
          ...(this.opts.outputEndGraceMs !== undefined ? { outputEndGraceMs: this.opts.outputEndGraceMs } : {}),
          onOutputEndMissing: () => {
            if (forgetStuckGeneration(slot, proc)) this.emit('kernel.lifecycle', { sessionId, language, generation: proc.generation, kind: 'died', reason: 'its output did not end after a cell’s result, so it was stopped' });
          },
          ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
          ...(options.timeLimitHint ? { timeLimitHint: options.timeLimitHint } : {}),
          setInterrupt: (fn) => (slot.interrupt = fn),
          setDeadline: (deadline) => (slot.deadline = deadline),
          ...(options.onHostCall ? { onHostCall: options.onHostCall } : {}),
          ...(options.onSent ? { onSent: options.onSent } : {}),
          onOutput: (stream, text, cellId) => {
            options.onOutput?.(stream, text);
            this.emit('kernel.output', { sessionId, language, generation: proc.generation, cellId, stream, text });
          },
        });
        if (result.died) {
          const ended = await proc.exited;
          if (slot.proc === proc) slot.proc = null;
          noteSlotEnded(slot, { kind: 'ended', generation: proc.generation, exit: result.died.cause ?? ended.cause });
        }
        return result;
      } finally {
        slot.busy = false;
        slot.interrupt = null;
        armIdleShutdown(slot, this.opts.idleShutdownMs ?? 30 * 60_000, (stopped) =>
          this.emit('kernel.lifecycle', { sessionId, language, generation: stopped.generation, kind: 'idle_shutdown' }),
        );
      }
    };
    const next = slot.chain.then(run, run);
    // The queue only orders cells: a failed cell is reported to its caller through `next`, and must not stop the next one.
    slot.chain = next.catch(() => {});
    return next;
  }

  /** Gives the running cell more time before its wall-clock limit stops it. */
  extendCellLimit(sessionId: string, language: KernelLanguage, extendMs: number): KernelLimitExtension {
    const deadline = this.sessions.get(sessionId)?.get(language)?.deadline;
    if (!deadline?.extend(extendMs)) return { extended: false };
    return { extended: true, limitMs: deadline.limitMs, endsAt: deadline.endsAt.toISOString() };
  }

  /** Interrupts the running cell (SIGINT in the worker, a kill after the bound). */
  interrupt(sessionId: string, language: KernelLanguage, owner?: string): boolean {
    const slot = owner ? (this.ownerSession.get(owner) === sessionId ? this.owned.get(owner)?.get(language) : undefined) : this.sessions.get(sessionId)?.get(language);
    if (!slot?.interrupt) return false;
    slot.interrupt(this.opts.interruptGraceMs ?? 2_000);
    return true;
  }

  /** Ends the current generation (if any) and clears a crash-loop stop; the next cell starts fresh. */
  async restart(sessionId: string, language: KernelLanguage): Promise<KernelSlotStatus> {
    const slot = slotIn(this.sessions, sessionId, language);
    const proc = resetForRestart(slot);
    if (proc) {
      await proc.shutdown(500);
      this.emit('kernel.lifecycle', { sessionId, language, generation: proc.generation, kind: 'restarted' });
    }
    return slotStatus(slot);
  }

  status(sessionId: string): KernelStatus {
    return sessionStatus(this.sessions, sessionId);
  }

  /**
   * The session is gone (deleted): its kernels stop now rather than at the idle timeout,
   * cells still waiting in its slots are refused, and its slots are released. Resolves
   * once every kernel of the session has exited.
   */
  async closeSession(sessionId: string): Promise<void> {
    const owners = [...this.ownerSession].filter(([, s]) => s === sessionId).map(([owner]) => owner);
    await Promise.all(owners.map((owner) => this.closeOwner(owner)));
    const slots = this.sessions.get(sessionId);
    if (!slots) return;
    this.sessions.delete(sessionId);
    const stopping: Promise<unknown>[] = [];
    for (const slot of slots.values()) {
      const proc = closeSlot(slot);
      if (!proc) continue;
      this.emit('kernel.lifecycle', { sessionId, language: slot.language, generation: proc.generation, kind: 'session_closed' });
      stopping.push(proc.shutdown(300));
    }
    await Promise.all(stopping);
  }

  /**
   * A child agent ended (issue 20): its own kernels stop now (their generations end as
   * closed), cells still waiting in them are refused, and their slots are released.
   */
  async closeOwner(owner: string): Promise<void> {
    const slots = this.owned.get(owner);
    const sessionId = this.ownerSession.get(owner);
    this.owned.delete(owner);
    this.ownerSession.delete(owner);
    if (!slots || !sessionId) return;
    const stopping: Promise<unknown>[] = [];
    for (const slot of slots.values()) {
      const proc = closeSlot(slot);
      if (!proc) continue;
      this.emit('kernel.lifecycle', { sessionId, language: slot.language, generation: proc.generation, kind: 'session_closed', reason: 'its child agent ended' });
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
  sizes(): { sessions: number; liveProcesses: number; ownedKernels: number } {
    return { sessions: this.sessions.size, liveProcesses: this.live.size, ownedKernels: this.owned.size };
  }

  /** Stops every worker and spare; called by Core.close(). */
  async close(): Promise<void> {
    this.closed = true;
    process.off('exit', this.onExit);
    // A worker whose mounts are still being made is stopped with the others once it exists.
    await Promise.allSettled([...this.launching]);
    const all = [...this.live];
    for (const table of [this.sessions, this.owned]) for (const slots of table.values()) for (const slot of slots.values()) if (slot.idleTimer) clearTimeout(slot.idleTimer);
    await Promise.all(all.map((proc) => proc.shutdown(300)));
    this.spares.clear();
    this.views.closeAll();
    await this.views.settled();
    this.spawnerProcess?.close();
    // A cache build still running writes into the data root: let it finish (bounded by its
    // own timeout) so nothing is left half-written and nobody deletes the root under it.
    await this.setup.settled();
  }
}
