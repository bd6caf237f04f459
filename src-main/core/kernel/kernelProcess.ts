import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { KernelLanguage, KernelSandboxState } from '../../../src-preload/contract/kernel';
import { LineSplitter, decodeFrame, type HostCallFrame, type ReadyFrame, type WarmFrame, type WorkerFrame } from './frames';
import type { KernelLimits } from '../config/kernelLimits';
import { createKernelCgroup, detectCgroups, type KernelCgroup } from './cgroup';
import type { KernelCache } from './kernelCache';
import { prlimitAvailable, prlimitPrefix } from './limits';
import { closeProtected, openProtectedNames, type ProtectedHandle } from './protectedMounts';
import {
  SANDBOX_CACHE,
  SANDBOX_HOME,
  SANDBOX_MPLCONFIG,
  SANDBOX_WORKERS,
  SANDBOX_WORKSPACE,
  SANDBOX_XDG_CACHE,
  bwrapArgs,
  kernelEnv,
  seatbeltProfile,
  type SandboxDecision,
} from './sandbox';
import { seccompFilterForHost } from './seccomp/filter';
import { StreamCapture } from './streamCapture';

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
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** In words, for the user. */
  reason: string;
}

/** Everything a running cell hears from the worker, besides its stdout/stderr. */
export interface CellSink {
  cellId: string;
  onText(stream: 'stdout' | 'stderr', text: string): void;
  onDisplay(frame: Extract<WorkerFrame, { type: 'display' }>): void;
  onHostCall(frame: HostCallFrame): void;
  onResult(frame: Extract<WorkerFrame, { type: 'result' }>): void;
  /** A frame from the worker was invalid (forged or broken) and was dropped. */
  onDroppedFrame?(reason: string): void;
  /** The worker died before its `result` (its remaining output has been delivered). */
  onExit(info: ExitInfo): void;
}

const SIGNAL_NAMES = Object.fromEntries(Object.entries(os.constants.signals).map(([k, v]) => [v, k]));

export function describeExit(code: number | null, signal: NodeJS.Signals | null, sandboxed: boolean): string {
  if (signal) return `killed by ${signal}`;
  // bwrap reports a child killed by signal N as exit code 128+N.
  if (sandboxed && code !== null && code > 128 && SIGNAL_NAMES[code - 128]) return `killed by ${SIGNAL_NAMES[code - 128]}`;
  return `exited with code ${code}`;
}

function scriptFor(spec: WorkerSpec): string {
  return spec.script ?? (spec.language === 'python' ? 'python/worker.py' : 'r/worker.R');
}

function commandFor(spec: WorkerSpec, workersRoot: string): string[] {
  const file = path.posix.join(workersRoot, scriptFor(spec));
  // -I: ignore PYTHON* variables and the user site; --vanilla: no profile, no saved workspace.
  return spec.language === 'python' ? [spec.interpreter, '-I', file] : [spec.interpreter, '--vanilla', file];
}

/** Joins the kernel's cgroups, then becomes bwrap: everything the sandbox starts is inside them. */
const JOIN_CGROUPS = 'unset PWD OLDPWD; n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || { echo "openai4s: cannot join the kernel cgroup $1" >&2; exit 125; }; shift; n=$((n-1)); done; exec "$@"';

/** fds 0-4 are the worker's (stdio and the frame pipes); bwrap's own inputs follow. */
const ARGS_FD = 5;

interface BwrapLaunch {
  file: string;
  args: string[];
  stdio: ('pipe' | number)[];
  /** Data written to the pipes at these stdio indices, then closed. */
  feeds: Map<number, Buffer>;
  protectedHandles: ProtectedHandle[];
  cgroup: KernelCgroup | null;
}

/**
 * bwrap's command line is only `bwrap --args 5`: its real arguments (which name host
 * paths) arrive on a pipe, so neither /proc/1/cmdline inside nor anything else in the
 * sandbox shows them. The worker script, the seccomp program and the protected names
 * arrive as fds too.
 */
function planBwrap(spec: WorkerSpec, generation: string): BwrapLaunch {
  const features = spec.sandbox.features ?? [];
  const stdio: ('pipe' | number)[] = ['pipe'];
  const feeds = new Map<number, Buffer>();
  const nextPipe = (data: Buffer): number => {
    const index = 5 + stdio.length;
    stdio.push('pipe');
    feeds.set(index, data);
    return index;
  };
  const seccomp = features.includes('seccomp') ? seccompFilterForHost() : null;
  const seccompFd = seccomp ? nextPipe(seccomp) : undefined;
  let workerScript: { fd: number; dest: string } | undefined;
  try {
    const data = fs.readFileSync(path.join(spec.workersDir, scriptFor(spec)));
    workerScript = { fd: nextPipe(data), dest: path.posix.join(SANDBOX_WORKERS, scriptFor(spec)) };
  } catch {
    // Unreadable: bind the folder instead, and let the interpreter report the problem.
  }
  const protectedHandles = openProtectedNames(spec.workspace);
  const protectedFds = protectedHandles.map((h) => {
    stdio.push(h.fd);
    return { fd: 5 + stdio.length - 1, name: h.name };
  });
  const limits = spec.limits;
  const inner = [...(limits && prlimitAvailable() ? prlimitPrefix(limits) : []), ...commandFor(spec, SANDBOX_WORKERS)];
  const sandboxArgs = bwrapArgs({
    workspace: spec.workspace,
    workersDir: spec.workersDir,
    cache: spec.cache,
    interpreter: spec.interpreter,
    features,
    ...(limits?.tmpMiB ? { tmpMiB: limits.tmpMiB } : {}),
    ...(seccompFd !== undefined ? { seccompFd } : {}),
    ...(workerScript ? { workerScript } : {}),
    protectedFds,
  });
  const bwrap = spec.sandbox.bwrap ?? 'bwrap';
  let file = bwrap;
  // bwrap takes only options from --args; the command stays on its argv, and it names
  // only paths inside the sandbox.
  let args = [...sandboxArgs, ...inner]; // an old bwrap without --args: the plain argv
  if (features.includes('args')) {
    const options = sandboxArgs.slice(0, sandboxArgs.lastIndexOf('--'));
    feeds.set(ARGS_FD, Buffer.from(options.map((a) => `${a}\0`).join('')));
    args = ['--args', String(ARGS_FD), '--', ...inner];
  }
  const cgroup = limits ? createKernelCgroup(detectCgroups(), `openai4s-${generation}`, limits) : null;
  if (cgroup) {
    args = ['-c', JOIN_CGROUPS, 'openai4s-kernel', String(cgroup.procs.length), ...cgroup.procs, file, ...args];
    file = '/bin/sh';
  }
  return { file, args, stdio, feeds, protectedHandles, cgroup };
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
 * One worker process: one generation of a kernel. It knows the wire (frames, fds,
 * markers) and nothing about sessions; the supervisor owns policy.
 */
export class KernelProcess {
  readonly generation = randomUUID();
  readonly startedAt = new Date();
  readonly ready: Promise<ReadyFrame>;
  readonly exited: Promise<ExitInfo>;
  exit: ExitInfo | null = null;
  private child: ChildProcess;
  private input: Writable;
  private out = new StreamCapture();
  private err = new StreamCapture();
  private sink: CellSink | null = null;
  /** Releases the running cell's `outDone` (its end markers arrived, or the worker died). */
  private releaseOut: (() => void) | null = null;
  private warmWaiter: ((frame: WarmFrame) => void) | null = null;
  private stderrAtStart = '';
  private cgroup: KernelCgroup | null = null;
  private isReady = false;

  constructor(readonly spec: WorkerSpec) {
    const sandbox = spec.sandbox.state;
    const bwrap = sandbox.state === 'sandboxed' && sandbox.backend === 'bwrap';
    const seatbelt = sandbox.state === 'sandboxed' && sandbox.backend === 'sandbox-exec';
    let dirs = { home: SANDBOX_HOME, tmp: '/tmp', mplConfig: SANDBOX_MPLCONFIG, xdgCache: SANDBOX_XDG_CACHE };
    let genDir: string | null = null;
    if (!bwrap) {
      genDir = path.join(spec.tmpRoot, this.generation);
      dirs = hostGenerationDirs(genDir, spec.cache);
    }
    // Under bwrap the worker seeds its config dir from the read-only cache itself.
    const env = kernelEnv(spec.parentEnv, dirs, bwrap && spec.cache ? { OPENAI4S_KERNEL_CACHE: SANDBOX_CACHE } : {});
    let file: string;
    let args: string[];
    let launch: BwrapLaunch | null = null;
    if (bwrap) {
      launch = planBwrap(spec, this.generation);
      ({ file, args } = launch);
    } else {
      const cmd = commandFor(spec, spec.workersDir);
      file = cmd[0]!;
      args = cmd.slice(1);
    }
    if (seatbelt) {
      const profile = seatbeltProfile({
        workspace: spec.workspace,
        workersDir: spec.workersDir,
        tmpDir: genDir!,
        interpreterPrefix: path.dirname(path.dirname(fs.realpathSync(spec.interpreter))),
      });
      args = ['-p', profile, file, ...args];
      file = '/usr/bin/sandbox-exec';
    }
    this.cgroup = launch?.cgroup ?? null;
    try {
      this.child = spawn(file, args, {
        // bwrap changes into /workspace itself; starting it in / keeps the host path out
        // of anything inherited (a shell's PWD).
        cwd: bwrap ? '/' : spec.workspace,
        env,
        // Own process group: a kill reaches the sandbox (or the bare worker) and its children.
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe', ...(launch?.stdio ?? [])],
      });
    } finally {
      // The child has its own copies now.
      if (launch) closeProtected(launch.protectedHandles);
    }
    for (const [index, data] of launch?.feeds ?? []) {
      const pipe = this.child.stdio[index] as Writable | null;
      pipe?.on('error', () => {}); // bwrap that died early is reported through `exited`
      pipe?.end(data);
    }
    const stdio = this.child.stdio as unknown as [null, NodeJS.ReadableStream, NodeJS.ReadableStream, NodeJS.ReadableStream, Writable];
    this.input = stdio[4];
    this.input.on('error', () => {}); // EPIPE after a crash is reported through `exited`
    stdio[1].on('data', (c: Buffer) => this.out.push(c));
    stdio[2].on('data', (c: Buffer) => {
      if (!this.isReady && this.stderrAtStart.length < 8192) this.stderrAtStart += c.toString('utf8');
      this.err.push(c);
    });
    const splitter = new LineSplitter(
      (line) => this.onLine(line),
      (size) => this.fail(`the worker wrote a protocol frame over ${size} bytes`),
    );
    stdio[3].on('data', (c: Buffer) => splitter.push(c));

    this.exited = new Promise((resolve) => {
      const finish = (code: number | null, signal: NodeJS.Signals | null, spawnError?: Error) => {
        if (this.exit) return;
        const reason = spawnError ? `could not start ${file}: ${spawnError.message}` : describeExit(code, signal, bwrap);
        this.exit = { code, signal, reason };
        if (genDir) fs.rmSync(genDir, { recursive: true, force: true });
        this.cgroup?.remove();
        this.out.end();
        this.err.end();
        this.releaseOut?.();
        this.sink?.onExit(this.exit);
        resolve(this.exit);
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
        const tail = this.stderrAtStart.trim().split('\n').slice(-5).join('\n');
        reject(new Error(`the ${spec.language} worker ${info.reason} before it was ready${tail ? `:\n${tail}` : ''}`));
      });
    });
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

  /** The cell's working directory as the cell sees it. */
  get cellWorkspace(): string {
    const s = this.spec.sandbox.state;
    return s.state === 'sandboxed' && s.backend === 'bwrap' ? SANDBOX_WORKSPACE : this.spec.workspace;
  }

  send(frame: Record<string, unknown>): void {
    if (this.alive) this.input.write(`${JSON.stringify(frame)}\n`);
  }

  /** Writes one already-encoded frame (without its newline). */
  sendLine(json: string): void {
    if (this.alive) this.input.write(`${json}\n`);
  }

  /** Starts a cell; the sink hears everything until `result` (or the worker's death). */
  begin(sink: CellSink, marker: string, frame: Record<string, unknown>): { outDone: Promise<void> } {
    this.sink = sink;
    let pending = 2;
    const outDone = new Promise<void>((resolve) => (this.releaseOut = resolve));
    const markerSeen = () => {
      if (--pending === 0) this.releaseOut?.();
    };
    this.out.begin(marker, (t) => sink.onText('stdout', t), markerSeen);
    this.err.begin(marker, (t) => sink.onText('stderr', t), markerSeen);
    if (this.exit) {
      // Already dead: the cell ends as a death, not a hang.
      const exit = this.exit;
      this.releaseOut?.();
      queueMicrotask(() => sink.onExit(exit));
    } else {
      this.send({ ...frame, type: 'execute', id: sink.cellId, marker });
    }
    return { outDone };
  }

  end(): void {
    this.sink = null;
    this.releaseOut = null;
    this.out.detach();
    this.err.detach();
  }

  warmup(modules: string[], timeoutMs: number): Promise<WarmFrame | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), timeoutMs);
      this.warmWaiter = (frame) => {
        clearTimeout(timer);
        resolve(frame);
      };
      void this.exited.then(() => resolve(null));
      this.send({ type: 'warmup', modules });
    });
  }

  /** Frames dropped since the process started, and the first reasons (for diagnostics). */
  readonly dropped = { count: 0, reasons: [] as string[] };

  /**
   * One line from fd 3. Frames are untrusted (a cell can write fd 3 itself): an invalid
   * one is dropped with its reason, and nothing a frame causes may throw into the event
   * loop, where it would end the whole app.
   */
  private onLine(line: Buffer): void {
    try {
      const decoded = decodeFrame(line);
      if (decoded.ok) return this.onFrame(decoded.frame);
      this.dropped.count++;
      if (this.dropped.reasons.length < 10) this.dropped.reasons.push(decoded.reason);
      // A broken host call still gets an answer: the cell is waiting for one.
      if (decoded.hostCallId !== undefined) this.send({ type: 'host_response', id: decoded.hostCallId, error: `the host call was malformed and not run (${decoded.reason})` });
      this.sink?.onDroppedFrame?.(decoded.reason);
    } catch (error) {
      this.dropped.count++;
      try {
        this.sink?.onDroppedFrame?.(`handling it failed: ${(error as Error)?.message ?? String(error)}`);
      } catch {
        // the count above is the record; the cell's note is best effort
      }
    }
  }

  private onFrame(frame: WorkerFrame): void {
    switch (frame.type) {
      case 'ready':
        this.isReady = true;
        this.readyResolve(frame);
        return;
      case 'warm':
        this.warmWaiter?.(frame);
        this.warmWaiter = null;
        return;
      case 'display':
        if (this.sink && frame.id === this.sink.cellId) this.sink.onDisplay(frame);
        return;
      case 'host_call':
        if (this.sink) this.sink.onHostCall(frame);
        else this.send({ type: 'host_response', id: frame.id, error: 'no cell is running' });
        return;
      case 'result':
        if (this.sink && frame.id === this.sink.cellId) {
          if (frame.outputs_drained === true) {
            this.out.finish();
            this.err.finish();
          }
          this.sink.onResult(frame);
        }
        return;
    }
  }

  private fail(reason: string): void {
    this.stderrAtStart += `\n${reason}`;
    this.kill();
  }

  /** SIGKILL to the whole process group: the sandbox, the worker and anything it started. */
  kill(): void {
    const pid = this.child.pid;
    if (!pid || !this.alive) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      try {
        this.child.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
  }

  /** Asks the worker to leave, then kills it if it does not within `graceMs`. */
  async shutdown(graceMs = 1000): Promise<ExitInfo> {
    if (!this.alive) return this.exit!;
    this.send({ type: 'shutdown' });
    this.input.end();
    const timer = setTimeout(() => this.kill(), graceMs);
    const info = await this.exited;
    clearTimeout(timer);
    return info;
  }
}
