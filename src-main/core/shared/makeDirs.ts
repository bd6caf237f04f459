import fs from 'node:fs';
import path from 'node:path';

/**
 * `mkdir -p` that always ends. Node's own recursive mkdirSync never returns for a path under
 * a folder that refuses new entries with ENOENT (any path under /proc on Linux, e.g.
 * OPENAI4S_DATA_DIR=/proc/x): it spun at full CPU. This walks up to the nearest folder that
 * exists and creates each missing one below it with a plain mkdir, so every refusal is an
 * error with its code (ENOENT, EACCES, ENOTDIR, EROFS ...).
 */
export function makeDirs(dir: string, mode = 0o777): void {
  const missing: string[] = [];
  let at = path.resolve(dir);
  for (;;) {
    const stat = fs.statSync(at, { throwIfNoEntry: false });
    if (stat) {
      if (!stat.isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${at}'`), { code: 'ENOTDIR', path: at });
      break;
    }
    missing.push(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const folder of missing.reverse()) {
    try {
      fs.mkdirSync(folder, { mode });
    } catch (error) {
      // Made meanwhile by another process: fine, as with mkdir -p.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !fs.statSync(folder).isDirectory()) throw error;
    }
  }
}
