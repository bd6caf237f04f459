import fs from 'node:fs';
import path from 'node:path';

/**
 * Paths the user names for a command's output, seen as the file system will see them:
 * a symlinked folder may lead into the app's data folder or a system tree.
 */

/** The deepest part of `p` that exists (`given`), its real path (symlinks resolved), and the names still missing below it. */
export function existingPart(p: string): { real: string; given: string; missing: string[] } {
  const missing: string[] = [];
  let given = path.resolve(p);
  for (;;) {
    try {
      return { real: fs.realpathSync(given), given, missing: missing.reverse() };
    } catch {
      const parent = path.dirname(given);
      if (parent === given) return { real: given, given, missing: missing.reverse() };
      missing.push(path.basename(given));
      given = parent;
    }
  }
}

/** `p` with its longest existing prefix replaced by its real path; the rest is kept as given. */
export function realPathOf(p: string): string {
  const found = existingPart(p);
  return path.join(found.real, ...found.missing);
}

/** Whether `child` is `root` or below it (both absolute). */
export const isInside = (child: string, root: string): boolean => child === root || child.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
