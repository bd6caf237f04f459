import fs from 'node:fs';
import path from 'node:path';

/**
 * Finding programs on this machine: one rule for "is runnable" (a regular file this
 * process may execute) and one PATH walk, for interpreters, conda and sandbox tools alike.
 */

/** Where system tools (bwrap, bindfs, fusermount) are looked for when a process has no PATH. */
export const SYSTEM_PATH = '/usr/bin:/bin';

/** Whether `file` is a regular file this process may execute. */
export function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    // Missing, not executable, or unreadable metadata: not a candidate (callers say what they looked at).
    return false;
  }
}

/**
 * The first `name` on the PATH of `processEnv` that is an executable file, or null.
 * Without a PATH, `fallbackPath` (a PATH-style list) is searched instead.
 */
export function findOnPath(name: string, processEnv: NodeJS.ProcessEnv, fallbackPath = ''): string | null {
  for (const dir of (processEnv.PATH ?? fallbackPath).split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}
