import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { killGroupOrProcess, type ChildLike } from '../processControl';
import { SPAWNER_SOURCE } from './spawnerSource';

/** What a child's fd is: /dev/null, a pipe it reads or writes, or what the app's fd n names (O_PATH). */
export type SpawnerFd = 'ignore' | 'read' | 'write' | { fd: number };

interface SpawnReply {
  op: 'spawned' | 'failed';
  id: number;
  pid?: number;
  pipes?: Record<string, number>;
  code?: string;
  message?: string;
  stage?: 'fds' | 'exec';
}

const O_NONBLOCK = fs.constants.O_NONBLOCK;

interface Request {
  resolve: (child: SpawnedChild | null) => void;
  file: string;
  fds: SpawnerFd[];
  detached: boolean;
}

/**
 * A child started by the spawner (spawnerSource.ts). Like Node's ChildProcess: `exit` when
 * it ends, `close` once its output pipes have closed too, `error` when it could not start.
 * Pipes the child reads are destroyed at its exit (as Node does with stdin).
 */
export class SpawnedChild extends EventEmitter implements ChildLike {
  readonly stdio: (Readable | Writable | null)[];
  private openReadable = 0;
  private exitStatus: [number | null, NodeJS.Signals | null] | null = null;
  /** `exit` has been emitted: `close` may follow. */
  private announced = false;

  constructor(
    readonly pid: number | undefined,
    stdio: (Readable | Writable | null)[],
  ) {
    super();
    this.stdio = stdio;
    for (const stream of stdio) {
      if (!stream || !(stream as Readable).readable) continue;
      this.openReadable++;
      stream.once('close', () => {
        this.openReadable--;
        this.maybeClose();
      });
    }
  }

  /**
   * A child that never ran (or cannot be heard): it reports `error`, as Node's spawn does,
   * and its pipes are empty (read: at their end; written: into nothing).
   */
  static failed(fds: SpawnerFd[], error: Error): SpawnedChild {
    const stdio = fds.map((kind) => (kind === 'write' ? ended() : kind === 'read' ? discarded() : null));
    const child = new SpawnedChild(undefined, stdio);
    setImmediate(() => child.emit('error', error));
    return child;
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    if (!this.pid || this.exitStatus) return false;
    try {
      process.kill(this.pid, signal);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The spawner reaped it. Said on the loop's next turn: the line may have come in the same
   * read as the one that made this child, before its caller had a chance to listen.
   */
  exited(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exitStatus) return;
    this.exitStatus = [code, signal];
    setImmediate(() => this.announceExit(code, signal));
  }

  private announceExit(code: number | null, signal: NodeJS.Signals | null): void {
    for (const stream of this.stdio) {
      if (!stream) continue;
      if (!(stream as Readable).readable) stream.destroy();
      // Output nobody reads is drained, so the pipe can close (Node flushes its children's stdio alike).
      else if ((stream as Readable).readableFlowing === null) (stream as Readable).resume();
    }
    this.announced = true;
    this.emit('exit', code, signal);
    this.maybeClose();
  }

  private maybeClose(): void {
    if (this.announced && this.openReadable === 0) {
      const [code, signal] = this.exitStatus!;
      this.openReadable = -1;
      // After the streams' own close handlers, as Node orders it.
      process.nextTick(() => this.emit('close', code, signal));
    }
  }
}

/** A write end whose reader is already gone: writes vanish, as they would into a dead child's pipe. */
function discarded(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

/** A read end of a child that never wrote. */
function ended(): Readable {
  return new Readable({
    read() {
      this.push(null);
    },
  });
}

/**
 * The app's handle on its spawner process: one per kernel supervisor, Linux only. Every
 * request that cannot go through it (not started yet, gone, not Linux, a relative file
 * name) is the caller's to run with Node's own spawn: see `spawnChild`.
 */
export class Spawner {
  private proc: ChildProcess | null = null;
  private spawnerPid = 0;
  private state: 'starting' | 'ready' | 'gone' = 'starting';
  private nextId = 1;
  private readonly waiting = new Map<number, Request>();
  private readonly children = new Map<number, SpawnedChild>();
  private partial = '';
  /** The spawner's last words on stderr (diagnostics). */
  stderr = '';
  readonly started: Promise<boolean>;

  constructor(python: string | null) {
    let settle: (ok: boolean) => void = () => {};
    this.started = new Promise((resolve) => (settle = resolve));
    this.onReady = settle;
    if (process.platform !== 'linux' || !python) {
      this.gone();
      return;
    }
    try {
      // The only spawn from the app's own process, made while it is still small.
      this.proc = spawn(python, ['-I', '-S', '-c', SPAWNER_SOURCE], { stdio: ['pipe', 'pipe', 'pipe'], env: {} });
    } catch {
      this.gone();
      return;
    }
    this.proc.stdin!.on('error', () => {});
    this.proc.stdout!.setEncoding('utf8');
    this.proc.stdout!.on('data', (text: string) => this.onData(text));
    this.proc.stderr!.setEncoding('utf8');
    this.proc.stderr!.on('data', (text: string) => (this.stderr = (this.stderr + text).slice(-4096)));
    this.proc.once('error', () => this.gone());
    this.proc.once('exit', () => this.gone());
  }

  private onReady: (ok: boolean) => void;

  get ready(): boolean {
    return this.state === 'ready' && !this.refused;
  }

  /** Why the spawner takes no more requests although it runs (null: it takes them). */
  refused: string | null = null;

  private refuse(why: string): void {
    this.refused ??= why;
  }

  /**
   * Starts `file` (an absolute path) with `args`. Resolves to the child, or to null when the
   * spawner cannot take the request (the caller then spawns it itself). A file that cannot
   * be executed gives a child that emits `error`, as Node's spawn does.
   */
  async spawn(file: string, args: readonly string[], opts: { env: NodeJS.ProcessEnv; fds: SpawnerFd[]; detached?: boolean }): Promise<SpawnedChild | null> {
    if (!this.ready || !path.isAbsolute(file)) return null;
    const id = this.nextId++;
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(opts.env)) if (value !== undefined) env[key] = value;
    return new Promise<SpawnedChild | null>((resolve) => {
      this.waiting.set(id, { resolve, file, fds: opts.fds, detached: Boolean(opts.detached) });
      this.refresh();
      this.send({ op: 'spawn', id, file, args: [file, ...args], env, setsid: Boolean(opts.detached), fds: opts.fds });
    });
  }

  /**
   * The child of a reply, made while its line is read: an `exit` line right behind it (a
   * short-lived helper, read in the same chunk) must find it.
   */
  private adopt(reply: SpawnReply, request: Request): SpawnedChild | null {
    if (reply.op === 'failed' && reply.stage === 'fds') {
      this.refuse(`it cannot open the app's descriptors (${reply.code}: ${reply.message})`);
      return null;
    }
    if (reply.op === 'failed') {
      const error = Object.assign(new Error(`spawn ${request.file} ${reply.code}: ${reply.message}`), { code: reply.code, errno: reply.code, syscall: 'spawn', path: request.file });
      return SpawnedChild.failed(request.fds, error);
    }
    const pid = reply.pid!;
    const stdio: (Readable | Writable | null)[] = [];
    let problem: Error | null = null;
    for (const [i, kind] of request.fds.entries()) {
      try {
        stdio.push(!problem && (kind === 'read' || kind === 'write') ? this.openEnd(kind, reply.pipes?.[String(i)]) : null);
      } catch (error) {
        problem = error as Error;
        stdio.push(null);
      }
    }
    this.send({ op: 'opened', id: reply.id });
    if (problem) {
      // Its pipes cannot be reached (the spawner's descriptors are out of the app's reach):
      // it must not run unheard. Its exit is still reaped; the app spawns by itself from now on.
      for (const stream of stdio) stream?.destroy();
      killGroupOrProcess(pid);
      this.children.set(pid, new SpawnedChild(pid, []));
      this.refuse(`the app cannot open its pipes (${problem.message})`);
      return null;
    }
    const child = new SpawnedChild(pid, stdio);
    this.children.set(pid, child);
    return child;
  }

  /** Stops the spawner; it kills whatever it started that still runs. */
  close(): void {
    this.refuse('it was closed');
    this.proc?.stdin?.end();
  }

  /**
   * The spawner keeps the app alive while it starts and while a request or a child it
   * started is alive (as Node's own child handles do), not otherwise: an app that is
   * otherwise done (a CLI command, a test) exits.
   */
  private refresh(): void {
    const on = this.children.size + this.waiting.size > 0;
    if (on !== this.referenced) this.setRef(on);
  }

  private referenced = true;

  private setRef(on: boolean): void {
    const proc = this.proc;
    this.referenced = on;
    if (!proc) return;
    if (on) proc.ref();
    else proc.unref();
    const stdout = proc.stdout as unknown as { _handle?: { ref?(): void; unref?(): void } } | null;
    if (on) stdout?._handle?.ref?.();
    else stdout?._handle?.unref?.();
    for (const stream of [proc.stdin, proc.stderr] as unknown as ({ _handle?: { unref?(): void } } | null)[]) stream?._handle?.unref?.();
  }

  /** The app's own descriptor on the spawner's end of a pipe. */
  private openEnd(kind: 'read' | 'write', fd: number | undefined): Readable | Writable {
    const where = `/proc/${this.spawnerPid}/fd/${fd}`;
    if (kind === 'write') {
      // The child writes: the app reads. Opening a pipe's read side never waits.
      return new net.Socket({ fd: fs.openSync(where, fs.constants.O_RDONLY | O_NONBLOCK), readable: true, writable: false });
    }
    try {
      return new net.Socket({ fd: fs.openSync(where, fs.constants.O_WRONLY | O_NONBLOCK), readable: false, writable: true });
    } catch (error) {
      // ENXIO: no reader any more (the child has already exited).
      if ((error as NodeJS.ErrnoException).code === 'ENXIO') return discarded();
      throw error;
    }
  }

  private send(message: Record<string, unknown>): void {
    this.proc?.stdin?.write(`${JSON.stringify(message)}\n`);
  }

  private onData(text: string): void {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) {
      let message: { op: string; id?: number; pid?: number; code?: number | null; signal?: NodeJS.Signals | null };
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        // Not the spawner speaking: it is not trusted with another request.
        this.stderr += `\nunreadable line from the spawner: ${line.slice(0, 200)}`;
        this.proc?.kill('SIGKILL');
        return;
      }
      if (message.op === 'ready') {
        this.spawnerPid = message.pid!;
        this.state = 'ready';
        this.refresh();
        this.onReady(true);
      } else if (message.op === 'exit') {
        const child = this.children.get(message.pid!);
        this.children.delete(message.pid!);
        this.refresh();
        child?.exited(message.code ?? null, message.signal ?? null);
      } else {
        const request = this.waiting.get(message.id!);
        this.waiting.delete(message.id!);
        if (request) request.resolve(this.adopt(message as SpawnReply, request));
        this.refresh();
      }
    }
  }

  /** The spawner ended (or never started): requests go to Node's spawn; what it started is gone with it. */
  private gone(): void {
    if (this.state === 'gone') return;
    this.state = 'gone';
    this.onReady(false);
    for (const request of this.waiting.values()) request.resolve(null);
    this.waiting.clear();
    for (const [pid, child] of this.children) {
      killGroupOrProcess(pid);
      child.exited(null, 'SIGKILL');
    }
    this.children.clear();
  }
}
