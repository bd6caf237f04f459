import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { KernelLanguage } from '../../../src-preload/contract/kernel';
import { PROTECTED_DIRS, PROTECTED_FILES } from '../security/protectedPaths';
import type { KernelProcess } from './kernelProcess';
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
