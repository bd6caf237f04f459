// electron-builder rebuilds native addons for Electron in place, in node_modules: after a
// `npm run dist`, the CLI and the tests (plain Node) would load a better-sqlite3 built for
// Electron's ABI and fail, and a rebuild that fails half-way leaves none at all (node-gyp
// cleans first). So dist keeps a copy of the addon's build folder and puts it back after,
// whatever happened.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Runs `task` and restores `<packageDir>/build` to what it was before, even when it throws. */
export async function keepNodeBuild(packageDir, task) {
  const build = path.join(packageDir, 'build');
  const had = fs.existsSync(build);
  const saved = fs.mkdtempSync(path.join(os.tmpdir(), 'openai4s-node-build-'));
  try {
    if (had) fs.cpSync(build, path.join(saved, 'build'), { recursive: true, verbatimSymlinks: true });
    return await task();
  } finally {
    // A new folder, not writes into the old files: node_modules may be hard-linked with
    // other checkouts (git worktrees), whose files must not change.
    fs.rmSync(build, { recursive: true, force: true });
    if (had) fs.renameSync(path.join(saved, 'build'), build);
    fs.rmSync(saved, { recursive: true, force: true });
  }
}
