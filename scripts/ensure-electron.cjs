#!/usr/bin/env node
// `npm start` runs this first. Two things the app needs and `npm install` deliberately
// does not do:
//  1. The Electron runtime. The electron package's own install script is not allowed to
//     run during `npm install` (package.json "allowScripts"), so an install never fails
//     where the binary cannot be downloaded; it is fetched here, once, on first start.
//  2. better-sqlite3 built for Electron's ABI. node_modules keeps the build for Node (the
//     CLI and the tests use it); the app loads a second build of the same version from
//     node_modules/.openai4s-electron/ (OPENAI4S_SQLITE_BINDING, set by the main process).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.join(__dirname, '..');
const electronDir = path.dirname(require.resolve('electron/package.json'));

function fail(message) {
  process.stderr.write(`\n${message}\n`);
  process.exit(1);
}

function electronInstalled() {
  try {
    const exe = fs.readFileSync(path.join(electronDir, 'path.txt'), 'utf8').trim();
    return fs.existsSync(path.join(electronDir, 'dist', exe));
  } catch {
    return false;
  }
}

if (!electronInstalled()) {
  process.stdout.write('Downloading the Electron runtime (first start only)...\n');
  const result = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], { stdio: 'inherit' });
  if (result.status !== 0 || !electronInstalled()) {
    fail(
      'Could not download the Electron runtime. Check your network (or set ELECTRON_MIRROR to a\n' +
        'reachable mirror, e.g. https://npmmirror.com/mirrors/electron/) and run `npm start` again.\n' +
        'Everything else works without it: `npm run -s cli -- --help` runs the headless app.',
    );
  }
}

const electronVersion = require('electron/package.json').version;
const sqliteDir = path.dirname(require.resolve('better-sqlite3/package.json'));
const sqliteVersion = require('better-sqlite3/package.json').version;
const target = path.join(root, 'node_modules', '.openai4s-electron', `electron-${electronVersion}-better-sqlite3-${sqliteVersion}-${process.platform}-${process.arch}`, 'better_sqlite3.node');

if (!fs.existsSync(target)) {
  process.stdout.write(`Building the SQLite addon for Electron ${electronVersion} (first start only)...\n`);
  // Build in a scratch copy, so the Node build in node_modules stays as it is.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'openai4s-sqlite-'));
  fs.cpSync(sqliteDir, scratch, { recursive: true, filter: (src) => !src.includes(`${path.sep}build${path.sep}`) });
  const bin = (name) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
  const common = { cwd: scratch, stdio: 'inherit', shell: process.platform === 'win32' };
  // A prebuilt addon when one is published for this Electron, else a build from source.
  let built = spawnSync(bin('prebuild-install'), ['--runtime', 'electron', '--target', electronVersion, '--arch', process.arch], common).status === 0;
  if (!built) {
    built =
      spawnSync(
        bin('node-gyp'),
        ['rebuild', '--release', `--target=${electronVersion}`, `--arch=${process.arch}`, '--dist-url=https://electronjs.org/headers', '--runtime=electron'],
        common,
      ).status === 0;
  }
  const addon = path.join(scratch, 'build', 'Release', 'better_sqlite3.node');
  if (!built || !fs.existsSync(addon)) {
    fail('Could not build better-sqlite3 for Electron. Install a C++ toolchain (see the README) and run `npm start` again.');
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(addon, target);
  fs.rmSync(scratch, { recursive: true, force: true });
}
