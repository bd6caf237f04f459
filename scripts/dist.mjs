#!/usr/bin/env node
// `npm run dist [-- --mac|--linux] [--x64|--arm64] [--dir] [--electron-dist DIR]`
// 1. preflight: the Electron runtime for each target is cached or downloadable, else one
//    line naming what is needed (ELECTRON_MIRROR, ...) and exit 1;
// 2. electron-vite build;
// 3. electron-builder with electron-builder.yml, signing for macOS chosen from the
//    environment (scripts/release/macSigning.mjs).
// Windows has no native build (the kernels need the Linux sandbox): see packaging/windows.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { preflight } from './release/preflight.mjs';
import { macSigning } from './release/macSigning.mjs';
import { keepNodeBuild } from './release/keepNodeBuild.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

function fail(line, code = 1) {
  process.stderr.write(`${line}\n`);
  process.exit(code);
}

/** The targets' platforms and CPUs: the flags, else this machine's platform with the yml's CPUs. */
export function targetsFrom(values, hostPlatform = process.platform) {
  if (values.win) return { error: 'npm run dist: there is no Windows build: the kernels need the Linux sandbox, so Windows runs the Linux build in WSL2 (build it with --linux, then the launcher zip from packaging/windows, README: Install)' };
  const platforms = [values.mac && 'darwin', values.linux && 'linux'].filter(Boolean);
  if (!platforms.length) {
    if (hostPlatform === 'darwin' || hostPlatform === 'linux') platforms.push(hostPlatform);
    else return { error: `npm run dist: no build for ${hostPlatform}; build --linux (for the WSL2 launcher) or --mac on those systems` };
  }
  const arches = [values.x64 && 'x64', values.arm64 && 'arm64'].filter(Boolean);
  const defaults = { darwin: ['arm64', 'x64'], linux: ['x64'] };
  return { targets: platforms.flatMap((platform) => (arches.length ? arches : defaults[platform]).map((arch) => ({ platform, arch }))) };
}

function builderCacheDir(env = process.env) {
  if (env.ELECTRON_BUILDER_CACHE) return env.ELECTRON_BUILDER_CACHE;
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Caches', 'electron-builder');
  if (process.platform === 'win32') return path.join(env.LOCALAPPDATA || os.tmpdir(), 'electron-builder', 'Cache');
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'electron-builder');
}

async function main() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        mac: { type: 'boolean' },
        linux: { type: 'boolean' },
        win: { type: 'boolean' },
        x64: { type: 'boolean' },
        arm64: { type: 'boolean' },
        dir: { type: 'boolean' },
        publish: { type: 'string' },
        'electron-dist': { type: 'string' },
      },
    });
  } catch (error) {
    fail(`npm run dist: ${error.message} (options: --mac --linux --x64 --arm64 --dir --publish never|always --electron-dist DIR)`, 2);
  }
  const { values } = parsed;
  const chosen = targetsFrom(values);
  if (chosen.error) fail(chosen.error, 2);
  const version = require('electron/package.json').version;
  const electronDist = values['electron-dist'] ? path.resolve(values['electron-dist']) : null;
  if (electronDist && !fs.existsSync(electronDist)) fail(`npm run dist: --electron-dist ${electronDist} does not exist (give an unpacked Electron ${version} or its zip)`, 2);

  if (!electronDist) {
    const problem = await preflight({ version, targets: chosen.targets, installers: !values.dir, builderCache: builderCacheDir() });
    if (problem) fail(problem);
  }

  // electron-vite's package exports do not include its bin; run it by path.
  const vite = spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
  if (vite.status !== 0) fail('npm run dist: electron-vite build failed (its output is above)');

  const signing = chosen.targets.some((t) => t.platform === 'darwin') ? macSigning() : null;
  if (signing) process.stdout.write(`${signing.summary}\n`);
  const config = { ...(signing?.override ?? {}), ...(electronDist ? { electronDist } : {}) };
  const platforms = new Set(chosen.targets.map((t) => t.platform));
  const arches = new Set(chosen.targets.map((t) => t.arch));
  const { build } = require('electron-builder');
  const sqliteDir = path.dirname(require.resolve('better-sqlite3/package.json'));
  try {
    // The rebuild for Electron happens in node_modules; the Node build comes back after.
    await keepNodeBuild(sqliteDir, () => build({
      projectDir: root,
      ...(platforms.has('darwin') ? { mac: values.dir ? ['dir'] : [] } : {}),
      ...(platforms.has('linux') ? { linux: values.dir ? ['dir'] : [] } : {}),
      ...(arches.has('x64') ? { x64: true } : {}),
      ...(arches.has('arm64') ? { arm64: true } : {}),
      publish: values.publish ?? 'never',
      config,
    }));
  } catch (error) {
    const first = String(error?.message ?? error).split('\n').find((line) => line.trim()) ?? 'unknown error';
    fail(`npm run dist: electron-builder failed: ${first.trim()}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Whatever goes wrong is one line, never a stack trace.
  await main().catch((error) => fail(`npm run dist: ${String(error?.message ?? error).split('\n')[0]}`));
}
