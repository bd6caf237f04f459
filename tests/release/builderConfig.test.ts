import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { DEB_RECOMMENDS } from '../../src-main/core/doctor/systemPackages';

// electron-builder's own loader and validator (what `electron-builder` runs before building):
// getConfig reads electron-builder.yml merged with package.json, validateConfiguration checks
// it against app-builder-lib's JSON schema and its deprecation rules.
const require = createRequire(import.meta.url);
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: string | null, configFromOptions: unknown): Promise<BuilderConfig>;
  validateConfiguration(config: unknown, logger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
const { fuseConfigFrom } = require('../../scripts/release/fuses.cjs') as { fuseConfigFrom(fuses: unknown): Record<string, unknown> };

interface TargetEntry {
  target: string;
  arch: string[];
}
interface BuilderConfig {
  productName: string;
  copyright: string;
  /** Normalised by getConfig into file sets. */
  files: { filter: string[] }[];
  extraResources: { from: string; to: string }[];
  asar: boolean;
  asarUnpack: string[];
  afterPack: string;
  npmRebuild: boolean;
  nativeRebuilder: string;
  electronFuses: Record<string, boolean>;
  fileAssociations: { ext: string; mimeType: string }[];
  mac: { target: TargetEntry[]; hardenedRuntime: boolean; entitlements: string; entitlementsInherit: string; icon: string; notarize: boolean; identity?: string };
  linux: { target: TargetEntry[]; icon: string; executableName: string };
  deb: { recommends: string[] };
  win?: unknown;
  nsis?: unknown;
  directories: { buildResources: string };
}

const root = path.resolve(__dirname, '../..');
const load = () => getConfig(root, null, null);

describe('electron-builder.yml', () => {
  it("passes electron-builder's own configuration validation", async () => {
    await expect(validateConfiguration(await load(), new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('is refused by the same validation when an option is misspelt (the check is live)', async () => {
    const config = await load();
    const broken = { ...config, mac: { ...config.mac, entitlement: 'resources/entitlements.mac.plist' } };
    await expect(validateConfiguration(broken, new DebugLogger(false))).rejects.toThrow(/configuration\.mac/);
  });

  it('builds a dmg for Apple Silicon and Intel, an AppImage and a deb for Linux, and nothing for Windows', async () => {
    const config = await load();
    expect(config.mac.target).toEqual([{ target: 'dmg', arch: ['arm64', 'x64'] }]);
    expect(config.linux.target).toEqual([
      { target: 'AppImage', arch: ['x64'] },
      { target: 'deb', arch: ['x64'] },
    ]);
    expect(config.win).toBeUndefined();
    expect(config.nsis).toBeUndefined();
  });

  it('signs with the hardened runtime and an entitlements file that grants JIT and nothing else', async () => {
    const config = await load();
    expect(config.mac.hardenedRuntime).toBe(true);
    // Ad-hoc or Developer ID is chosen by scripts/dist.mjs from the environment, not here.
    expect(config.mac.identity).toBeUndefined();
    expect(config.mac.entitlementsInherit).toBe(config.mac.entitlements);
    const plist = fs.readFileSync(path.join(root, config.mac.entitlements), 'utf8');
    const keys = [...plist.matchAll(/<key>([^<]+)<\/key>\s*<(true|false)\/>/g)].map((m) => [m[1], m[2]]);
    expect(keys).toEqual([['com.apple.security.cs.allow-jit', 'true']]);
  });

  it('recommends exactly the packages the AppImage checks at first start', async () => {
    expect((await load()).deb.recommends).toEqual([...DEB_RECOMMENDS]);
  });

  it('ships every folder the app reads from its resources at run time, and each source exists', async () => {
    const config = await load();
    const shipped = config.extraResources.map((r) => r.to).sort();
    // appRoot() users: kernel workers (workerSetup), envs (kernelEnvs, kernelLimits), bundled
    // skills (core), the demo's recorded payloads (demo), the export's host module (reproducePackage).
    expect(shipped).toEqual(['envs', 'kernel-workers', 'resources/demo', 'resources/reproduce', 'skills']);
    for (const { from } of config.extraResources) expect(fs.statSync(path.join(root, from)).isDirectory(), from).toBe(true);
    expect(fs.existsSync(path.join(root, 'envs', 'limits.json'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'resources', 'reproduce', 'openai4s_host.py'))).toBe(true);
  });

  it('packs the app into an asar with native addons unpacked and rebuilt for Electron', async () => {
    const config = await load();
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toContain('**/*.node');
    expect(config.npmRebuild).toBe(true);
    expect(config.nativeRebuilder).toBe('sequential');
    expect(config.files.flatMap((set) => set.filter)).toEqual(expect.arrayContaining(['out/**', 'package.json', '!**/*.map']));
  });

  it('sets every fuse of the wire explicitly, with the afterPack hook that applies them in place', async () => {
    const config = await load();
    const fuses = fuseConfigFrom(config.electronFuses);
    expect(fuses.strictlyRequireAllFuses).toBe(true);
    expect(config.electronFuses).toMatchObject({ runAsNode: false, enableEmbeddedAsarIntegrityValidation: true, onlyLoadAppFromAsar: true, enableNodeOptionsEnvironmentVariable: false, enableNodeCliInspectArguments: false });
    expect(fs.existsSync(path.join(root, config.afterPack))).toBe(true);
    const hook = require(path.join(root, config.afterPack)) as unknown;
    expect(hook).toBeTypeOf('function');
  });

  it('associates exported session packages with the app', async () => {
    const config = await load();
    expect(config.fileAssociations).toEqual([expect.objectContaining({ ext: 'openai4s.zip', mimeType: 'application/x-openai4s-package' })]);
  });

  it('names icons that exist in the build resources', async () => {
    const config = await load();
    const resources = path.join(root, config.directories.buildResources);
    expect(fs.existsSync(path.join(resources, config.mac.icon))).toBe(true);
    for (const size of [16, 32, 48, 64, 128, 256, 512]) expect(fs.existsSync(path.join(resources, config.linux.icon, `${size}x${size}.png`)), `${size}`).toBe(true);
  });
});
