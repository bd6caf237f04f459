import fs from 'node:fs';
import { fileKind } from '../shared/fileKind';

/**
 * Why `file` cannot be a package to verify or reproduce, in one sentence, or null when it is
 * a regular file. Checked before the zip is opened: a folder opens on Linux and only fails
 * at the first read (a raw EISDIR), and a missing file deserves its own words.
 */
export function packageFileProblem(file: string): string | null {
  let stats: fs.Stats;
  try {
    stats = fs.statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return `${file} does not exist.`;
    if (code === 'ENOTDIR') return `${file} does not exist (a part of its path is a file, not a folder).`;
    return `${file} cannot be read (${code ?? 'error'}); check the path and its permissions.`;
  }
  if (stats.isDirectory()) return `${file} is a folder, not a package; give the exported .zip file.`;
  if (!stats.isFile()) return `${file} is ${fileKind(stats)}, not a package; give the exported .zip file.`;
  return null;
}
