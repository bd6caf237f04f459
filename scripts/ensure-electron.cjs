#!/usr/bin/env node
// `npm start` runs this first. The electron package's own install script is not
// allowed to run during `npm install` (package.json "allowScripts"), so that an
// install never fails where the Electron binary cannot be downloaded. The binary
// is fetched here, once, on the first start instead.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const pkgDir = path.dirname(require.resolve('electron/package.json'));

function installed() {
  try {
    const exe = fs.readFileSync(path.join(pkgDir, 'path.txt'), 'utf8').trim();
    return fs.existsSync(path.join(pkgDir, 'dist', exe));
  } catch {
    return false;
  }
}

if (installed()) process.exit(0);
process.stdout.write('Downloading the Electron runtime (first start only)...\n');
const result = spawnSync(process.execPath, [path.join(pkgDir, 'install.js')], { stdio: 'inherit' });
if (result.status !== 0 || !installed()) {
  process.stderr.write(
    '\nCould not download the Electron runtime. Check your network (or set ELECTRON_MIRROR to a\n' +
      'reachable mirror, e.g. https://npmmirror.com/mirrors/electron/) and run `npm start` again.\n' +
      'Everything else works without it: `npm run -s cli -- --help` runs the headless app.\n',
  );
  process.exit(1);
}
