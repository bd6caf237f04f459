import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeDirs } from '../shared/makeDirs';

export interface DataDirInfo {
  path: string;
  source: 'env' | 'default';
}

/** `OPENAI4S_DATA_DIR` if set (with `~` expanded, relative paths made absolute), else `~/.openai4s`. */
export function resolveDataDir(processEnv: NodeJS.ProcessEnv = process.env): DataDirInfo {
  const raw = processEnv.OPENAI4S_DATA_DIR?.trim();
  if (raw) {
    const expanded = raw === '~' || raw.startsWith('~/') ? path.join(os.homedir(), raw.slice(1)) : raw;
    return { path: path.resolve(expanded), source: 'env' };
  }
  return { path: path.join(os.homedir(), '.openai4s'), source: 'default' };
}

/** Creates the data root (private to the user) on first use; a clear error if it cannot. */
export function ensureDataDir(info: DataDirInfo): string {
  let existing: fs.Stats | undefined;
  try {
    existing = fs.statSync(info.path, { throwIfNoEntry: false });
  } catch {
    existing = undefined; // e.g. ENOTDIR: mkdir below reports it with the fix
  }
  if (existing && !existing.isDirectory()) {
    throw new Error(`The data directory ${info.path} exists but is not a directory. Set OPENAI4S_DATA_DIR to a directory.`);
  }
  if (existing) return info.path;
  try {
    makeDirs(info.path, 0o700);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    const hint =
      info.source === 'env'
        ? 'Set OPENAI4S_DATA_DIR to a writable directory.'
        : 'Set OPENAI4S_DATA_DIR to a writable directory, or fix the permissions of your home directory.';
    throw new Error(`Cannot create the data directory ${info.path} (${code}). ${hint}`);
  }
  return info.path;
}
