import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Writable } from 'node:stream';
import type { KernelSandboxState } from '../../../src-preload/contract/kernel';
import { releaseLeases, WORKER_FDS } from './bwrapLaunch';
import { exitCause, exitText, withOutOfMemory, type ExitInfo } from './exitInfo';
import { FramePoll, pipeFd } from './framePoll';
import { FramePump, type CellSink } from './framePump';
import type { ReadyFrame, WarmFrame } from './frames';
import { killProcessGroup, stopWithGrace, type ChildLike } from './processControl';
import { closeProtected } from './protectedMounts';
import { SANDBOX_WORKSPACE } from './sandbox';
import type { SpawnerFd } from './spawner/spawner';
import { planWorkerLaunch, type WorkerLaunch } from './workerLaunch';
import type { WorkerSpec } from './workerSpec';

export type { ExitInfo } from './exitInfo';
export type { CellSink } from './framePump';
export type { WorkerSpec } from './workerSpec';

/**
 * One worker process: one generation of a kernel. It knows the wire (frames, fds,
 * markers) and nothing about sessions; the supervisor owns policy. How it is spawned is
 * planned in workerLaunch.ts, its pipes are read by framePump.ts.
 */
export class KernelProcess {
  readonly startedAt = new Date();
  readonly ready: Promise<ReadyFrame>;
  /** Once the process has ended and its sandbox's mounts are released. */
  readonly exited: Promise<ExitInfo>;
  /**
   * As soon as the process is known to have ended (before the mounts are released): whoever
   * records why must do it here, or a cell started meanwhile in a new generation comes first.
   */
  readonly ended: Promise<ExitInfo>;
  exit: ExitInfo | null = null;
  /** Under bwrap: whether /proc/self/mountinfo in its sandbox names no host path. */
  readonly hostPathsHidden: boolean;
  private child: ChildLike;
  private input: Writable;
  private answers: Writable;
  private pump: FramePump;
  /** Reads fd 3 right after a host call's answer while the cell calls quickly (framePoll.ts). */
  private poll: FramePoll | null = null;

  /** Plans the launch (mounts, protected names) without blocking the event loop, then spawns. */
  static async start(spec: WorkerSpec): Promise<KernelProcess> {
    const generation = randomUUID();
    const launch = await planWorkerLaunch(spec, generation);
    // Never rejects: what the spawner cannot start is an `error` event, or null (Node spawns).
    return new KernelProcess(spec, generation, launch, await spawnThroughSpawner(spec, launch));
  }

  private constructor(
    readonly spec: WorkerSpec,
    readonly generation: string,
    launch: WorkerLaunch,
    spawned: ChildLike | null,
  ) {
    const { file, args } = launch;
    this.hostPathsHidden = launch.hostPathsHidden;
    try {
      this.child =
        spawned ??
        spawn(file, args, {
          cwd: launch.cwd,
          env: launch.env,
          // Own process group: a kill reaches the sandbox (or the bare worker) and its children.
          detached: true,
          // fd 3 frames out, fd 4 frames in, fd 5 host-call answers in (see `sendAnswer`).
          stdio: ['ignore', ...Array<'pipe'>(WORKER_FDS - 1).fill('pipe'), ...launch.extraStdio],
        });
    } catch (error) {
      void releaseLeases(launch.leases);
      launch.cgroup?.remove();
      throw error;
    } finally {
      // The child has its own copies now.
      closeProtected(launch.protectedHandles);
    }
    for (const [index, data] of launch.feeds) {
      const pipe = this.child.stdio[index] as Writable | null;
      pipe?.on('error', () => {}); // bwrap that died early is reported through `exited`
      pipe?.end(data);
    }
    const stdio = this.child.stdio as unknown as [null, NodeJS.ReadableStream, NodeJS.ReadableStream, NodeJS.ReadableStream, Writable, Writable];
    this.input = stdio[4];
    this.input.on('error', () => {}); // EPIPE after a crash is reported through `exited`
    // The Python worker's thread that made a host call reads its answer from fd 5 itself
    // (no hand-over from the fd 4 reader thread: one wake-up less per call); R's reader
    // takes answers with the other frames on fd 4.
    stdio[5].on('error', () => {});
    if (spec.language === 'python') this.answers = stdio[5];
    else {
      this.answers = this.input;
      stdio[5].end();
    }
    this.pump = new FramePump({
      send: (frame) => this.send(frame),
      answer: (frame) => this.sendAnswer(JSON.stringify(frame)),
      ready: (frame) => this.readyResolve(frame),
      kill: () => this.kill(),
    });
    this.pump.attach(stdio[1], stdio[2], stdio[3]);
    const framesFd = pipeFd(stdio[3]);
    if (framesFd !== null && spec.framePoll !== false) this.poll = new FramePoll(framesFd, stdio[3], (chunk) => this.pump.pushFrames(chunk), spec.framePoll);

    let ended: (info: ExitInfo) => void = () => {};
    this.ended = new Promise((resolve) => (ended = resolve));
    this.exited = new Promise((resolve) => {
      const finish = (code: number | null, signal: NodeJS.Signals | null, spawnError?: Error) => {
        if (this.exit) return;
        // Read before the cgroup goes: whether its OOM killer ended a process for the memory limit.
        const cgroup = launch.cgroup;
        const cause = spawnError
          ? { kind: 'spawn_failed' as const, file, message: spawnError.message }
          : (this.pump.killCause ?? withOutOfMemory(exitCause(code, signal, launch.bwrap), cgroup?.oomKills() ?? 0, cgroup?.memoryMiB ?? null));
        this.exit = { code, signal, reason: exitText(cause), cause };
        if (launch.genDir) fs.rmSync(launch.genDir, { recursive: true, force: true });
        launch.cgroup?.remove();
        this.pump.workerExited(this.exit);
        ended(this.exit);
        // The sandbox is gone: its views of the workspace and cache can go too. `exited`
        // resolves once they are unmounted, so a closed session leaves no mount behind.
        const exit = this.exit;
        void releaseLeases(launch.leases).then(() => resolve(exit));
      };
      this.child.on('error', (e) => finish(null, null, e));
      this.child.on('close', (code, signal) => finish(code, signal));
    });
    this.ready = new Promise<ReadyFrame>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`the ${spec.language} worker did not start within ${spec.startTimeoutMs} ms`));
        this.kill();
      }, spec.startTimeoutMs);
      this.readyResolve = (frame) => {
        clearTimeout(timer);
        resolve(frame);
      };
      void this.exited.then((info) => {
        clearTimeout(timer);
        const tail = this.pump.stderrAtStart.trim().split('\n').slice(-5).join('\n');
        reject(new Error(`the ${spec.language} worker ${info.reason} before it was ready${tail ? `:\n${tail}` : ''}`));
      });
    });
    // Marks the rejection handled: a worker that dies before anyone awaits `ready` must not be an unhandled rejection; awaiters still see it.
    this.ready.catch(() => {});
  }

  private readyResolve: (frame: ReadyFrame) => void = () => {};

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.exit === null;
  }

  get sandboxState(): KernelSandboxState {
    return this.spec.sandbox.state;
  }

  /** Frames dropped since the process started, and the first reasons (for diagnostics). */
  get dropped(): { count: number; reasons: string[] } {
    return this.pump.dropped;
  }

  /** The cell's working directory as the cell sees it. */
  get cellWorkspace(): string {
    const s = this.spec.sandbox.state;
    return s.state === 'sandboxed' && s.backend === 'bwrap' ? SANDBOX_WORKSPACE : this.spec.workspace;
  }

  send(frame: Record<string, unknown>): void {
    if (this.alive) this.input.write(`${JSON.stringify(frame)}\n`);
  }

  /** Writes one already-encoded `host_response` frame (without its newline) where the worker waits for it. */
  sendAnswer(json: string): void {
    if (!this.alive) return;
    this.answers.write(`${json}\n`);
    this.poll?.afterAnswer(this.answers.writableLength > 0);
  }

  /** Starts a cell; the sink hears everything until `result` (or the worker's death). */
  begin(sink: CellSink, marker: string, frame: Record<string, unknown>): { outDone: Promise<void> } {
    const outDone = this.pump.begin(sink, marker);
    if (this.exit) {
      // Already dead: the cell ends as a death, not a hang.
      const exit = this.exit;
      this.pump.releaseOutput();
      queueMicrotask(() => sink.onExit(exit));
    } else {
      this.send({ ...frame, type: 'execute', id: sink.cellId, marker });
    }
    return { outDone };
  }

  end(): void {
    this.pump.end();
  }

  warmup(modules: string[], timeoutMs: number): Promise<WarmFrame | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), timeoutMs);
      this.pump.onWarm((frame) => {
        clearTimeout(timer);
        resolve(frame);
      });
      void this.exited.then(() => resolve(null));
      this.send({ type: 'warmup', modules });
    });
  }

  /** One line from fd 3 (the pump's handler; the frame-fuzz test feeds it directly). */
  private onLine(line: Buffer): void {
    this.pump.onLine(line);
  }

  /** SIGKILL to the whole process group: the sandbox, the worker and anything it started. */
  kill(): void {
    if (!this.alive) return;
    killProcessGroup(this.child);
  }

  /** Asks the worker to leave, then kills it if it does not within `graceMs`. */
  async shutdown(graceMs = 1000): Promise<ExitInfo> {
    if (!this.alive) return this.exit!;
    const ask = () => {
      this.send({ type: 'shutdown' });
      this.input.end();
    };
    return stopWithGrace({ ask, kill: () => this.kill(), exited: this.exited }, graceMs);
  }
}

/**
 * A sandbox is started by the supervisor's spawner (spawner/spawner.ts) when it runs: the
 * same command, descriptors and process group, without forking the app. The worker's six
 * descriptors are pipes then (fd 1-3 it writes, fd 4-5 it reads); bwrap's extra inputs are
 * pipes it reads, or the protected names' descriptors. Null: spawn it the usual way (no
 * spawner, not bwrap (the bare worker needs its working folder), or the spawner is gone).
 */
async function spawnThroughSpawner(spec: WorkerSpec, launch: WorkerLaunch): Promise<ChildLike | null> {
  if (!spec.spawner?.ready || !launch.bwrap || launch.cwd !== '/') return null;
  const fds: SpawnerFd[] = ['ignore', 'write', 'write', 'write', 'read', 'read', ...launch.extraStdio.map((entry): SpawnerFd => (entry === 'pipe' ? 'read' : { fd: entry }))];
  return spec.spawner.spawn(launch.file, launch.args, { env: launch.env, fds, detached: true });
}
