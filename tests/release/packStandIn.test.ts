import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listPackage } from '@electron/asar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyRelease } from '../../scripts/release/verifyRelease';
import { elfHeader, fakeElectronBinary, root } from './fixtureApp';

// electron-builder run for real over this checkout and electron-builder.yml, with a
// stand-in for the Electron runtime it cannot download here (electronDist: a folder with an
// ELF "electron" carrying a fuse wire), then verify-release over what it made. The SQLite
// addon is not rebuilt (that needs Electron's headers from the network), so verify-release
// must find the Node build in it: the one check that fails, and the one the release
// workflow's rebuild makes pass.
let tmp: string;
let appDir: string;
let build: ReturnType<typeof spawnSync>;

beforeAll(() => {
  if (!fs.existsSync(path.join(root, 'out', 'main', 'index.js'))) throw new Error('out/ is not built: run npm run build first (npm test does)');
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'openai4s-pack-'));
  const dist = path.join(tmp, 'electron-dist');
  fs.mkdirSync(dist);
  fs.writeFileSync(path.join(dist, 'electron'), fakeElectronBinary(elfHeader(0x3e)), { mode: 0o755 });
  fs.writeFileSync(path.join(dist, 'chrome-sandbox'), elfHeader(0x3e), { mode: 0o755 });
  const electronVersion = (JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }).version;
  fs.writeFileSync(path.join(dist, 'version'), electronVersion);
  build = spawnSync(
    path.join(root, 'node_modules', '.bin', 'electron-builder'),
    ['--linux', 'dir', '--x64', '--publish', 'never', `-c.electronDist=${dist}`, `-c.electronVersion=${electronVersion}`, '-c.npmRebuild=false', `-c.directories.output=${path.join(tmp, 'release')}`],
    { cwd: root, encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 280_000 },
  );
  appDir = path.join(tmp, 'release', 'linux-unpacked');
}, 300_000);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('electron-builder over electron-builder.yml, with a stand-in Electron', () => {
  it('packs the app, running the afterPack hook that applies and reads back the fuses', () => {
    expect(build.status, `${build.stdout}\n${build.stderr}`).toBe(0);
    expect(build.stdout).toContain('fuses applied and read back');
    expect(fs.existsSync(path.join(appDir, 'openai4s-desktop'))).toBe(true);
  });

  it('leaves the renderer-only packages and the SQLite sources out of the archive', () => {
    const listed = listPackage(path.join(appDir, 'resources', 'app.asar'), { isPack: false });
    for (const pkg of ['react', 'react-dom', 'katex', '3dmol', 'highlight.js', 'zustand']) expect(listed.filter((p) => p.startsWith(`/node_modules/${pkg}/`)), pkg).toEqual([]);
    expect(listed.filter((p) => p.startsWith('/node_modules/better-sqlite3/deps/') || p.endsWith('test_extension.node'))).toEqual([]);
    expect(fs.existsSync(path.join(appDir, 'resources', 'app.asar.unpacked', 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))).toBe(true);
  });

  it('passes verify-release except for the addon, which is still the Node build without the rebuild', async () => {
    const report = await verifyRelease({ appDir, projectDir: root });
    const failed = report.checks.filter((c) => !c.ok);
    expect(failed.map((c) => c.name)).toEqual(['native modules']);
    expect(failed[0]!.detail).toContain(`built for NODE_MODULE_VERSION ${process.versions.modules}, Electron needs`);
    expect(failed[0]!.detail).toContain('npmRebuild');
  });
});
