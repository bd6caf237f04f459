import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { KernelLanguage } from '../../../src-preload/contract/kernel';
import { PROTECTED_DIRS, PROTECTED_FILES } from '../security/protectedPaths';
import type { KernelProcess } from './kernelProcess';
import type { PathViews } from './pathViews';
import type { WorkerSpec } from './workerSpec';
import { listWorkspaceDir } from '../workspace/safeFs';

/** What a spare imports before it is handed over: the science stack, bound to no name. */
export const WARM_MODULES: Record<KernelLanguage, string[]> = {
  python: ['numpy', 'pandas', 'matplotlib', 'matplotlib.pyplot'],
  r: [],
};

export interface Spare {
  proc: KernelProcess;
  dir: string;
  /** Resolves once imports are done (or failed: a spare that did not warm is still a worker). */
  warm: Promise<boolean>;
}

export function spareDir(workspacesRoot: string): string {
  // A leading dot: session ids cannot start with one, so this never names a session.
  return path.join(workspacesRoot, `.spare-${randomUUID()}`);
}

/** Waits for the worker and runs the imports; a spare that did not warm is still a worker. */
export function warmSpare(proc: KernelProcess, language: KernelLanguage, timeoutMs = 60_000): Promise<boolean> {
  const modules = WARM_MODULES[language];
  return proc.ready.then(
    async () => !modules.length || (await proc.warmup(modules, timeoutMs)) !== null,
    () => false,
  );
}

/**
 * Makes the spare's folder become the session's workspace. The worker's sandbox bound
 * (or its cwd is) that folder's inode, so renaming the folder to the session's path
 * hands the running worker the session workspace without a restart. Files already in
 * the session's workspace are moved in first (same file system: rename only).
 */
export function adoptWorkspace(spare: Spare, target: string): void {
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  let existing: string[] = [];
  try {
    existing = fs.readdirSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    fs.renameSync(spare.dir, target);
    return;
  }
  // The spare's sandbox mounts its protected names read-only; moving the session's own
  // entry onto one would detach that mount. Empty placeholders are redundant and dropped;
  // real content (a .git, an .env) means this spare cannot take the workspace over.
  const protectedNames = new Set([...PROTECTED_DIRS, ...PROTECTED_FILES]);
  // The safe listing leaves out empty placeholders, so a protected name it shows has content.
  const withContent = new Set(listWorkspaceDir(target, '.').entries.map((e) => e.name));
  for (const name of existing) {
    if (!protectedNames.has(name) || !fs.existsSync(path.join(spare.dir, name))) continue;
    if (withContent.has(name)) throw new Error(`the workspace has its own ${name}: a spare cannot adopt it`);
  }
  for (const name of existing) {
    if (protectedNames.has(name) && fs.existsSync(path.join(spare.dir, name))) {
      const placeholder = path.join(target, name);
      if (fs.lstatSync(placeholder).isDirectory()) fs.rmdirSync(placeholder);
      else fs.unlinkSync(placeholder);
      continue;
    }
    fs.renameSync(path.join(target, name), path.join(spare.dir, name));
  }
  fs.rmdirSync(target);
  fs.renameSync(spare.dir, target);
}

export function removeSpareDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

export interface SparePoolOptions {
  /** `<dataDir>/workspaces`: a spare's folder is made there, to be renamed into a session's. */
  workspacesRoot: string;
  /** The spec of a worker in `dir` (waiting for the kernel cache: a spare is not in a hurry). */
  prepare: (language: KernelLanguage, dir: string) => Promise<WorkerSpec>;
  launch: (spec: WorkerSpec) => Promise<KernelProcess>;
  /** The supervisor is closed: no spare may start. */
  closed: () => boolean;
  /** The kernels' views of host folders: a spare's view follows its folder into the session. */
  views?: PathViews;
}

/**
 * At most one warm spare worker per language (DESIGN.md, Kernels): started when a
 * session opens, handed to the session's first cell, replaced shortly after.
 */
export class SparePool {
  private spares = new Map<KernelLanguage, Spare>();
  private starting = new Map<KernelLanguage, Promise<void>>();

  constructor(private readonly opts: SparePoolOptions) {}

  /** Starts a pre-warmed spare worker for `language` unless one is alive (or on its way). */
  ensure(language: KernelLanguage): Promise<void> {
    let pending = this.starting.get(language);
    if (!pending) {
      pending = this.start(language).finally(() => this.starting.delete(language));
      this.starting.set(language, pending);
    }
    return pending;
  }

  /** Resolves once every spare being started has finished its imports (for measurements). */
  async settled(): Promise<void> {
    // A spare that failed to start has nothing left to settle; its failure is the cold path's to report.
    await Promise.all([...this.starting.values()].map((p) => p.catch(() => {})));
    await Promise.all([...this.spares.values()].map((spare) => spare.warm));
  }

  /**
   * The spare, now working in `workspace`, or null when there is none (or it died, or
   * cannot adopt the workspace): the caller then starts a worker itself.
   */
  async take(language: KernelLanguage, workspace: string): Promise<KernelProcess | null> {
    // A spare still being prepared (waiting for the kernel cache) is worth waiting for,
    // as is one still importing: both were started ahead of this cell.
    // A start that failed leaves no spare, which the lines below answer with null.
    await this.starting.get(language)?.catch(() => {});
    const spare = this.spares.get(language);
    if (!spare || !spare.proc.alive) return null;
    this.spares.delete(language);
    await spare.warm;
    if (!spare.proc.alive) return null;
    const views = this.opts.views;
    try {
      // A spare seeing its folder through a FUSE view must not join a workspace other live
      // kernels reach another way (one view per folder: pathViews.ts says why).
      if (views && !views.canMove(spare.dir, workspace)) throw new Error('the workspace is in use by another kernel');
      adoptWorkspace(spare, workspace);
      views?.moved(spare.dir, workspace);
    } catch {
      // A spare that cannot move is dropped: the caller starts a worker itself, which reports any real problem.
      spare.proc.kill();
      return null;
    }
    spare.proc.spec.workspace = workspace;
    // Replace it after a pause, so warming the next one does not compete with this cell.
    setTimeout(() => void this.ensure(language), 2_000).unref();
    return spare.proc;
  }

  /** Removes the folders of the spares (their processes are stopped by the supervisor). */
  clear(): void {
    for (const spare of this.spares.values()) removeSpareDir(spare.dir);
    this.spares.clear();
  }

  private async start(language: KernelLanguage): Promise<void> {
    if (this.opts.closed() || this.spares.get(language)?.proc.alive) return;
    const dir = spareDir(this.opts.workspacesRoot);
    let spec: WorkerSpec;
    try {
      // A spare is started in the background anyway: let it wait for the cache so its
      // science imports (and the session's first cell) use it.
      spec = await this.opts.prepare(language, dir);
    } catch {
      removeSpareDir(dir);
      return; // a spare is an optimisation; the cold path reports the error to the user
    }
    if (this.opts.closed() || this.spares.get(language)?.proc.alive) return removeSpareDir(dir);
    let proc: KernelProcess;
    try {
      proc = await this.opts.launch(spec);
    } catch (error) {
      removeSpareDir(dir);
      throw error;
    }
    if (this.opts.closed()) return removeSpareDir(dir); // the supervisor stops a worker started after its close
    const spare: Spare = { proc, dir, warm: warmSpare(proc, language) };
    this.spares.set(language, spare);
    void proc.exited.then(() => {
      if (this.spares.get(language) === spare) {
        this.spares.delete(language);
        removeSpareDir(dir);
      }
    });
  }
}
