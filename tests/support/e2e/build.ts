import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '../../..');
export const RENDERER_DIR = path.join(PROJECT_ROOT, 'out', 'renderer');
/** The production preload bundle: the e2e page runs it to get `window.openai4s`. */
export const PRELOAD_FILE = path.join(PROJECT_ROOT, 'out', 'preload', 'index.js');

let built = false;

/**
 * The e2e tests load the production renderer and preload builds. If one is missing,
 * build once (`npm run build`); if that fails, say what to run.
 */
export function ensureRendererBuild(): string {
  const index = path.join(RENDERER_DIR, 'index.html');
  if (existsSync(index) && existsSync(PRELOAD_FILE)) return RENDERER_DIR;
  if (!built) {
    built = true;
    try {
      execFileSync('npm', ['run', 'build'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
    } catch (error) {
      throw new Error(
        `The renderer build is missing (${index}) and \`npm run build\` failed: ${String(error)}. Run \`npm run build\` and fix its errors, then rerun the e2e tests.`,
      );
    }
  }
  for (const file of [index, PRELOAD_FILE]) {
    if (!existsSync(file)) {
      throw new Error(`The build is missing ${file}. Run \`npm run build\` before the e2e tests.`);
    }
  }
  return RENDERER_DIR;
}
