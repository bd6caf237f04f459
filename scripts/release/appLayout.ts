import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

/** What verify-release needs from electron-builder.yml. */
export interface BuilderConfig {
  productName: string;
  extraResources: { from: string; to: string; filter?: string[] }[];
  electronFuses: Record<string, boolean>;
  linux: { executableName: string };
}

export function readBuilderConfig(projectDir: string): BuilderConfig {
  return YAML.parse(fs.readFileSync(path.join(projectDir, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
}

/** Where the parts of an unpacked app are, per platform. */
export interface AppLayout {
  platform: 'linux' | 'darwin' | 'win32';
  /** The unpacked app: linux-unpacked/, the .app bundle, win-unpacked/. */
  root: string;
  /** The folder holding app.asar and the extra resources. */
  resources: string;
  /** The main executable. */
  executable: string;
  /** What @electron/fuses reads: the .app (it finds the framework) or the executable. */
  fuseTarget: string;
  infoPlist: string | null;
}

/**
 * Finds the app in `dir`: a .app bundle (or a folder with exactly one, as electron-builder's
 * mac-arm64/), else the Linux executable named in electron-builder.yml, else the .exe.
 */
export function detectLayout(dir: string, config: BuilderConfig): AppLayout {
  const resolved = path.resolve(dir);
  if (!fs.existsSync(resolved) || !fs.statSync(resolved).isDirectory()) throw new Error(`${dir}: not a folder (give the unpacked app, e.g. release/linux-unpacked or release/mac-arm64)`);
  const apps = resolved.endsWith('.app') ? [resolved] : fs.readdirSync(resolved).filter((name) => name.endsWith('.app')).map((name) => path.join(resolved, name));
  if (apps.length > 1) throw new Error(`${dir}: holds ${apps.length} .app bundles; give one of them`);
  if (apps.length === 1) {
    const app = apps[0]!;
    const contents = path.join(app, 'Contents');
    return {
      platform: 'darwin',
      root: app,
      resources: path.join(contents, 'Resources'),
      executable: path.join(contents, 'MacOS', config.productName),
      fuseTarget: app,
      infoPlist: path.join(contents, 'Info.plist'),
    };
  }
  const linuxExe = path.join(resolved, config.linux.executableName);
  if (fs.existsSync(linuxExe)) return { platform: 'linux', root: resolved, resources: path.join(resolved, 'resources'), executable: linuxExe, fuseTarget: linuxExe, infoPlist: null };
  const winExe = path.join(resolved, `${config.productName}.exe`);
  if (fs.existsSync(winExe)) return { platform: 'win32', root: resolved, resources: path.join(resolved, 'resources'), executable: winExe, fuseTarget: winExe, infoPlist: null };
  throw new Error(`${dir}: not an unpacked app (no ${config.productName}.app, ${config.linux.executableName} or ${config.productName}.exe in it)`);
}

/** Every file under `dir` (relative paths, '/'-separated), symlinks not followed. */
export function walkFiles(dir: string, skip: (relative: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const visit = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (skip(child)) continue;
      if (entry.isDirectory()) visit(child);
      else if (entry.isFile()) out.push(child);
    }
  };
  visit('');
  return out;
}

/** Bytes on disk under `target` (a file or a folder), symlinks counted as links. */
export function diskBytes(target: string): number {
  const stat = fs.lstatSync(target);
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const name of fs.readdirSync(target)) total += diskBytes(path.join(target, name));
  return total;
}
