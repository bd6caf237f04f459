import fs from 'node:fs';
import path from 'node:path';

let cachedRoot: string | null = null;

/**
 * The folder that holds `envs/`, `kernel-workers/`, `skills/` and `resources/`.
 * From source or from `out/` it is the project root (found by walking up to our
 * package.json); a packaged app sets `OPENAI4S_APP_ROOT` to its resources folder.
 */
export function appRoot(processEnv: NodeJS.ProcessEnv = process.env): string {
  const override = processEnv.OPENAI4S_APP_ROOT;
  if (override) return path.resolve(override);
  if (cachedRoot) return cachedRoot;
  let dir = typeof __dirname === 'string' ? __dirname : process.cwd();
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg)) {
      try {
        if (JSON.parse(fs.readFileSync(pkg, 'utf8')).name === 'openai4s-desktop') {
          cachedRoot = dir;
          return dir;
        }
      } catch {
        // not ours; keep walking
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  cachedRoot = process.cwd();
  return cachedRoot;
}
