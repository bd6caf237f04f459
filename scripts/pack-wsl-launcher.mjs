#!/usr/bin/env node
// Packs the Windows download: the WSL2 launcher with the Linux build it installs.
//   node scripts/pack-wsl-launcher.mjs --app-dir release/linux-unpacked [--out release]
// writes <out>/OpenAI4S-<version>-windows-wsl2.zip holding OpenAI4S/ with OpenAI4S.cmd,
// OpenAI4S.ps1, install-in-distro.sh, README.txt, the icon, the Linux build as
// OpenAI4S-<version>-linux-x64.tar.gz and release.json (version, bundle name, sha256,
// which the launcher checks before installing).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { zipSync } from 'fflate';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const launcherDir = path.join(root, 'packaging', 'windows');

function fail(line) {
  process.stderr.write(`pack-wsl-launcher: ${line}\n`);
  process.exit(1);
}

export function packWslLauncher({ appDir, outDir, version }) {
  if (!fs.existsSync(path.join(appDir, 'openai4s-desktop'))) throw new Error(`${appDir} is not the unpacked Linux app (no openai4s-desktop in it): run npm run dist -- --linux first`);
  const bundle = `OpenAI4S-${version}-linux-x64.tar.gz`;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'openai4s-wsl-pack-'));
  try {
    const tarball = path.join(scratch, bundle);
    const tar = spawnSync('tar', ['-czf', tarball, '-C', path.dirname(path.resolve(appDir)), path.basename(path.resolve(appDir))], { encoding: 'utf8' });
    if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr.trim() || tar.error?.message}`);
    const bundleBytes = fs.readFileSync(tarball);
    const release = { version, bundle, sha256: createHash('sha256').update(bundleBytes).digest('hex') };
    const file = (name) => fs.readFileSync(path.join(launcherDir, name));
    const entries = {
      'OpenAI4S/OpenAI4S.cmd': file('OpenAI4S.cmd'),
      'OpenAI4S/OpenAI4S.ps1': file('OpenAI4S.ps1'),
      'OpenAI4S/install-in-distro.sh': file('install-in-distro.sh'),
      'OpenAI4S/README.txt': file('README.txt'),
      'OpenAI4S/openai4s.png': fs.readFileSync(path.join(root, 'resources', 'icons', '512x512.png')),
      'OpenAI4S/release.json': Buffer.from(`${JSON.stringify(release, null, 2)}\n`),
      // Already compressed: stored as it is.
      [`OpenAI4S/${bundle}`]: [bundleBytes, { level: 0 }],
    };
    fs.mkdirSync(outDir, { recursive: true });
    const zip = path.join(outDir, `OpenAI4S-${version}-windows-wsl2.zip`);
    fs.writeFileSync(zip, zipSync(entries, { level: 6 }));
    return { zip, release };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let values;
  try {
    ({ values } = parseArgs({ options: { 'app-dir': { type: 'string' }, out: { type: 'string' } } }));
  } catch (error) {
    fail(`${error.message} (usage: --app-dir release/linux-unpacked [--out release])`);
  }
  if (!values['app-dir']) fail('--app-dir is needed (the unpacked Linux app, e.g. release/linux-unpacked)');
  const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
  try {
    const { zip } = packWslLauncher({ appDir: values['app-dir'], outDir: values.out ?? path.join(root, 'release'), version });
    process.stdout.write(`${zip}\n`);
  } catch (error) {
    fail(error.message);
  }
}
