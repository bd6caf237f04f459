import fs from 'node:fs';
import path from 'node:path';
import { detectLayout, readBuilderConfig } from './appLayout';
import { checkAppFiles, checkAsarIntegrity, checkExecutable, checkExtraResources, checkFuses, checkNativeModules, checkSizes, type Check } from './checks';

export interface VerifyReleaseOptions {
  /** The unpacked app: release/linux-unpacked, release/mac-arm64 (or its .app). */
  appDir: string;
  /** The checkout the app was built from (electron-builder.yml, package.json, the resources). */
  projectDir: string;
  /** NODE_MODULE_VERSION of the Electron the app ships; default node_modules/electron/abi_version. */
  electronAbi?: number;
  /** Release files (dmg, AppImage, deb) whose size is checked too. */
  artifacts?: string[];
  maxAppMiB?: number;
  maxArtifactMiB?: number;
}

export interface VerifyReleaseReport {
  ok: boolean;
  platform: string | null;
  checks: Check[];
}

/** Electron ~190 MB plus the app's ~100 MB; the compressed installers are about half. */
export const DEFAULT_MAX_APP_MIB = 500;
export const DEFAULT_MAX_ARTIFACT_MIB = 220;

/** The ABI the electron package declares (it ships the file `abi_version`). */
export function electronAbiOf(projectDir: string): number {
  const file = path.join(projectDir, 'node_modules', 'electron', 'abi_version');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run npm install, or pass --electron-abi`);
  const abi = Number(fs.readFileSync(file, 'utf8').trim());
  if (!Number.isInteger(abi) || abi <= 0) throw new Error(`${file} does not hold an ABI number`);
  return abi;
}

export async function verifyRelease(options: VerifyReleaseOptions): Promise<VerifyReleaseReport> {
  const config = readBuilderConfig(options.projectDir);
  const version = (JSON.parse(fs.readFileSync(path.join(options.projectDir, 'package.json'), 'utf8')) as { version: string }).version;
  let layout;
  try {
    layout = detectLayout(options.appDir, config);
  } catch (error) {
    return { ok: false, platform: null, checks: [{ name: 'layout', ok: false, detail: (error as Error).message }] };
  }
  const { check: executable, arch } = checkExecutable(layout);
  const checks: Check[] = [
    executable,
    checkAppFiles(layout, version),
    checkAsarIntegrity(layout),
    checkExtraResources(layout, config, options.projectDir),
    checkNativeModules(layout, options.electronAbi ?? electronAbiOf(options.projectDir), arch),
    await checkFuses(layout, config),
    checkSizes(layout, options.maxAppMiB ?? DEFAULT_MAX_APP_MIB, options.artifacts ?? [], options.maxArtifactMiB ?? DEFAULT_MAX_ARTIFACT_MIB),
  ];
  return { ok: checks.every((c) => c.ok), platform: layout.platform, checks };
}
