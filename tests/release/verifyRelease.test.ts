import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBuilderConfig } from '../../scripts/release/appLayout';
import { electronAbiOf, verifyRelease } from '../../scripts/release/verifyRelease';
import { buildFixtureApp, root } from './fixtureApp';

const require = createRequire(import.meta.url);
const afterPack = require('../../scripts/after-pack.cjs') as (context: unknown) => Promise<void>;
const config = readBuilderConfig(root);
const electronAbi = electronAbiOf(root);

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'openai4s-verify-release-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let n = 0;
/** A fixture app in its own folder; by default built right: Electron's ABI, fuses flipped by the real afterPack hook. */
async function app(options: Partial<Parameters<typeof buildFixtureApp>[1]> & { flipFuses?: boolean } = {}) {
  const dir = path.join(tmp, String(n++));
  const built = await buildFixtureApp(dir, { abi: electronAbi, ...options });
  if (options.flipFuses !== false) {
    const platform = options.platform ?? 'linux';
    await afterPack({
      appOutDir: built.appDir,
      electronPlatformName: platform,
      packager: { executableName: config.linux.executableName, appInfo: { productFilename: config.productName }, config: { electronFuses: config.electronFuses } },
    });
  }
  return built;
}

const byName = (report: Awaited<ReturnType<typeof verifyRelease>>) => Object.fromEntries(report.checks.map((c) => [c.name, c]));

describe('verify-release on an unpacked app laid out like electron-builder', () => {
  it('passes every check on a Linux app built right, and the command says so with exit 0', async () => {
    const { appDir } = await app();
    const report = await verifyRelease({ appDir, projectDir: root });
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.checks.map((c) => c.name)).toEqual(['executable', 'app files', 'asar integrity', 'extra resources', 'native modules', 'fuses', 'size']);
    expect(byName(report)['native modules']!.detail).toContain(`better_sqlite3.node ABI ${electronAbi}`);
    expect(byName(report)['executable']!.detail).toContain('elf x64');

    const cli = spawnSync(path.join(root, 'node_modules', '.bin', 'tsx'), [path.join(root, 'scripts', 'verify-release.ts'), appDir], { encoding: 'utf8' });
    expect(cli.stderr).toBe('');
    expect(cli.status).toBe(0);
    expect(cli.stdout).toMatch(/^ok {3}fuses: 8 fuses as electron-builder\.yml sets them$/m);
    expect(cli.stdout.trim().split('\n').at(-1)).toBe('verify-release: all 7 checks passed (linux)');
  });

  it('fails an addon still built for Node instead of Electron, naming both ABIs', async () => {
    const { appDir } = await app({ abi: 115 });
    const check = byName(await verifyRelease({ appDir, projectDir: root }))['native modules']!;
    expect(check.ok).toBe(false);
    expect(check.detail).toContain(`built for NODE_MODULE_VERSION 115, Electron needs ${electronAbi}`);
  });

  it('accepts an N-API addon under any ABI', async () => {
    const { appDir } = await app({ abi: 'napi' });
    expect(byName(await verifyRelease({ appDir, projectDir: root }))['native modules']).toMatchObject({ ok: true, detail: expect.stringContaining('N-API') });
  });

  it('fails a binary whose fuses were never flipped, naming each fuse that differs', async () => {
    const { appDir } = await app({ flipFuses: false });
    const check = byName(await verifyRelease({ appDir, projectDir: root }))['fuses']!;
    expect(check.ok).toBe(false);
    expect(check.detail).toContain('runAsNode: is on, should be off');
    expect(check.detail).toContain('enableEmbeddedAsarIntegrityValidation: is off, should be on');
  });

  it('fails when an extra resource is missing or differs from the source, naming the file', async () => {
    const { appDir, resources } = await app();
    fs.rmSync(path.join(resources, 'envs', 'limits.json'));
    fs.appendFileSync(path.join(resources, 'resources', 'reproduce', 'openai4s_host.py'), '\n# edited\n');
    const check = byName(await verifyRelease({ appDir, projectDir: root }))['extra resources']!;
    expect(check.ok).toBe(false);
    expect(check.detail).toContain('envs: missing limits.json');
    expect(check.detail).toContain('resources/reproduce: differs from resources/reproduce: openai4s_host.py');
  });

  it('fails when a file inside app.asar no longer matches its integrity hash', async () => {
    const { appDir, resources } = await app();
    const archive = path.join(resources, 'app.asar');
    const bytes = fs.readFileSync(archive);
    const at = bytes.indexOf('<title>OpenAI4S</title>');
    bytes.write('<title>Tampered</title>', at, 'latin1');
    fs.writeFileSync(archive, bytes);
    const check = byName(await verifyRelease({ appDir, projectDir: root }))['asar integrity']!;
    expect(check).toMatchObject({ ok: false, detail: expect.stringContaining('/out/renderer/index.html') });
  });

  it('fails when a package the main process requires was left out of the archive', async () => {
    const { appDir } = await app({ omitPackages: ['yaml'] });
    const check = byName(await verifyRelease({ appDir, projectDir: root }))['app files']!;
    expect(check).toMatchObject({ ok: false, detail: expect.stringContaining('not packed: yaml') });
  });

  it('fails an app over the size limit, and sizes each release artifact given', async () => {
    const { appDir } = await app();
    const artifact = path.join(tmp, 'OpenAI4S-0.1.0-linux-x86_64.AppImage');
    fs.writeFileSync(artifact, Buffer.alloc(3 * 1048576));
    const report = await verifyRelease({ appDir, projectDir: root, maxAppMiB: 0.001, artifacts: [artifact], maxArtifactMiB: 2 });
    const check = byName(report)['size']!;
    expect(check.ok).toBe(false);
    expect(check.detail).toMatch(/the unpacked app is [\d.]+ MiB, over the 0\.001 MiB limit/);
    expect(check.detail).toContain('OpenAI4S-0.1.0-linux-x86_64.AppImage is 3 MiB, over the 2 MiB limit');
  });

  it('checks a macOS .app: Mach-O arm64, the framework fuses, and the header hash in Info.plist', async () => {
    const { appDir, resources } = await app({ platform: 'darwin' });
    const report = await verifyRelease({ appDir, projectDir: root });
    expect(report.platform).toBe('darwin');
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(byName(report)['asar integrity']!.detail).toContain('header hash in Info.plist matches');

    const info = path.join(resources, '..', 'Info.plist');
    fs.writeFileSync(info, fs.readFileSync(info, 'utf8').replace(/<string>[0-9a-f]{64}<\/string>/, `<string>${'0'.repeat(64)}</string>`));
    expect(byName(await verifyRelease({ appDir, projectDir: root }))['asar integrity']).toMatchObject({ ok: false, detail: expect.stringContaining('Info.plist ElectronAsarIntegrity is SHA256 0000') });
  });

  it('says in one line what is wrong with a folder that is not an app, exit 1', async () => {
    const empty = path.join(tmp, 'empty');
    fs.mkdirSync(empty);
    const cli = spawnSync(path.join(root, 'node_modules', '.bin', 'tsx'), [path.join(root, 'scripts', 'verify-release.ts'), empty], { encoding: 'utf8' });
    expect(cli.status).toBe(1);
    expect(cli.stderr).toContain(`FAIL layout: ${empty}: not an unpacked app (no OpenAI4S.app, openai4s-desktop or OpenAI4S.exe in it)`);
  });
});
