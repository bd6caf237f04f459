import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import { extractFile, getRawHeader, listPackage } from '@electron/asar';
import plist from 'plist';
import { addonInfo, binaryInfo, PLATFORM_FORMAT, type Arch } from './binaryInfo';
import { diskBytes, walkFiles, type AppLayout, type BuilderConfig } from './appLayout';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

const require = createRequire(import.meta.url);
const { compareWire, getCurrentFuseWire } = require('./fuses.cjs') as {
  compareWire(wire: Record<number, number>, fuses: Record<string, boolean>): string[];
  getCurrentFuseWire(target: string): Promise<Record<number, number>>;
};

const pass = (name: string, detail: string): Check => ({ name, ok: true, detail });
const fail = (name: string, detail: string): Check => ({ name, ok: false, detail });
/** At most `n` names, then how many more. */
const some = (names: string[], n = 5) => names.slice(0, n).join(', ') + (names.length > n ? ` and ${names.length - n} more` : '');

/** The main executable exists, is the platform's format, and says which CPU the app is for. */
export function checkExecutable(layout: AppLayout): { check: Check; arch: Arch | null } {
  const name = 'executable';
  if (!fs.existsSync(layout.executable)) return { check: fail(name, `${layout.executable}: missing`), arch: null };
  const info = binaryInfo(fs.readFileSync(layout.executable));
  const want = PLATFORM_FORMAT[layout.platform];
  if (info.format !== want) return { check: fail(name, `${path.basename(layout.executable)}: is ${info.format}, not ${want}`), arch: null };
  const arch = info.arches.length === 1 ? info.arches[0]! : null;
  return { check: pass(name, `${path.basename(layout.executable)}: ${info.format} ${info.arches.join('+') || 'unknown CPU'}`), arch };
}

interface AsarFile {
  path: string;
  size: number;
  offset?: string;
  unpacked?: boolean;
  integrity?: { algorithm: string; hash: string };
}

interface HeaderNode {
  files?: Record<string, HeaderNode>;
  size?: number;
  offset?: string;
  unpacked?: boolean;
  link?: string;
  integrity?: { algorithm: string; hash: string };
}

function asarFiles(node: HeaderNode, prefix = ''): AsarFile[] {
  const out: AsarFile[] = [];
  for (const [name, child] of Object.entries(node.files ?? {})) {
    const at = `${prefix}/${name}`;
    if (child.files) out.push(...asarFiles(child, at));
    else if (child.link === undefined) out.push({ path: at, size: child.size ?? 0, ...(child.offset !== undefined ? { offset: child.offset } : {}), ...(child.unpacked ? { unpacked: true } : {}), ...(child.integrity ? { integrity: child.integrity } : {}) });
  }
  return out;
}

/** The app's own files: the entry points, the version, no source maps, and every package main requires. */
export function checkAppFiles(layout: AppLayout, expectedVersion: string): Check {
  const name = 'app files';
  const archive = path.join(layout.resources, 'app.asar');
  if (!fs.existsSync(archive)) return fail(name, `${archive}: missing`);
  const listed = new Set(listPackage(archive, { isPack: false }).map((p) => p.replaceAll('\\', '/')));
  const problems: string[] = [];
  const required = ['/package.json', '/out/main/index.js', '/out/preload/index.js', '/out/renderer/index.html'];
  const absent = required.filter((p) => !listed.has(p));
  if (absent.length) problems.push(`missing ${absent.join(', ')}`);
  if (listed.has('/package.json')) {
    const pkg = JSON.parse(extractFile(archive, 'package.json').toString('utf8')) as { name?: string; version?: string; main?: string };
    if (pkg.version !== expectedVersion) problems.push(`package.json says version ${pkg.version}, expected ${expectedVersion}`);
    if (pkg.main && !listed.has(`/${path.posix.normalize(pkg.main)}`)) problems.push(`package.json main ${pkg.main} is not in the archive`);
  }
  const maps = [...listed].filter((p) => p.endsWith('.map') && !p.includes('/node_modules/'));
  if (maps.length) problems.push(`source maps shipped: ${some(maps)}`);
  // main is bundled with its dependencies external: each require()d package must be packed.
  const packages = new Set<string>();
  for (const file of [...listed].filter((p) => p.startsWith('/out/main/') && p.endsWith('.js'))) {
    const code = extractFile(archive, file.slice(1)).toString('utf8');
    for (const match of code.matchAll(/require\(["']([^"'./][^"']*)["']\)/g)) {
      const spec = match[1]!;
      if (spec === 'electron' || isBuiltin(spec)) continue;
      packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  }
  const unpacked = path.join(layout.resources, 'app.asar.unpacked');
  const missingPackages = [...packages].filter((p) => !listed.has(`/node_modules/${p}/package.json`) && !fs.existsSync(path.join(unpacked, 'node_modules', p, 'package.json')));
  if (missingPackages.length) problems.push(`packages the main process requires are not packed: ${some(missingPackages)}`);
  if (problems.length) return fail(name, problems.join('; '));
  return pass(name, `app.asar: ${listed.size} entries, version ${expectedVersion}, ${packages.size} packages main requires all packed`);
}

/**
 * ASAR integrity: every file's sha256 against the hash its header records (packed and
 * unpacked alike), and on macOS the header's own hash in Info.plist, which Electron checks
 * at start with the EnableEmbeddedAsarIntegrityValidation fuse on (macOS and Windows only).
 */
export function checkAsarIntegrity(layout: AppLayout): Check {
  const name = 'asar integrity';
  const archive = path.join(layout.resources, 'app.asar');
  if (!fs.existsSync(archive)) return fail(name, `${archive}: missing`);
  const raw = getRawHeader(archive) as unknown as { header: HeaderNode; headerString: string; headerSize: number };
  const files = asarFiles(raw.header);
  const problems: string[] = [];
  const noHash = files.filter((f) => !f.integrity).map((f) => f.path);
  if (noHash.length) problems.push(`no integrity hash for ${some(noHash)}`);
  const fd = fs.openSync(archive, 'r');
  const changed: string[] = [];
  try {
    for (const file of files.filter((f) => f.integrity)) {
      let bytes: Buffer;
      if (file.unpacked) {
        const onDisk = path.join(`${archive}.unpacked`, file.path);
        if (!fs.existsSync(onDisk)) {
          changed.push(`${file.path} (unpacked file missing)`);
          continue;
        }
        bytes = fs.readFileSync(onDisk);
      } else {
        bytes = Buffer.alloc(file.size);
        fs.readSync(fd, bytes, 0, file.size, 8 + raw.headerSize + Number(file.offset));
      }
      if (createHash('sha256').update(bytes).digest('hex') !== file.integrity!.hash) changed.push(file.path);
    }
  } finally {
    fs.closeSync(fd);
  }
  if (changed.length) problems.push(`contents differ from their recorded hash: ${some(changed)}`);
  let plistNote = '';
  if (layout.platform === 'darwin') {
    const info = layout.infoPlist && fs.existsSync(layout.infoPlist) ? (plist.parse(fs.readFileSync(layout.infoPlist, 'utf8')) as Record<string, unknown>) : null;
    const recorded = (info?.ElectronAsarIntegrity as Record<string, { algorithm?: string; hash?: string }> | undefined)?.['Resources/app.asar'];
    const headerHash = createHash('sha256').update(raw.headerString).digest('hex');
    if (!recorded) problems.push('Info.plist has no ElectronAsarIntegrity for Resources/app.asar');
    else if (recorded.algorithm !== 'SHA256' || recorded.hash !== headerHash) problems.push(`Info.plist ElectronAsarIntegrity is ${recorded.algorithm} ${recorded.hash}, the header hashes to ${headerHash}`);
    else plistNote = ', header hash in Info.plist matches';
  }
  if (problems.length) return fail(name, problems.join('; '));
  return pass(name, `${files.length} files match their sha256${plistNote}`);
}

/** Every file of every extraResources folder of electron-builder.yml, byte for byte. */
export function checkExtraResources(layout: AppLayout, config: BuilderConfig, projectDir: string): Check {
  const name = 'extra resources';
  const problems: string[] = [];
  let count = 0;
  for (const { from, to } of config.extraResources) {
    const source = path.join(projectDir, from);
    const target = path.join(layout.resources, to);
    if (!fs.existsSync(target)) {
      problems.push(`${to}: missing`);
      continue;
    }
    // The yml filters out Python bytecode caches; nothing else is left behind.
    const files = walkFiles(source, (rel) => rel.split('/').includes('__pycache__') || rel.endsWith('.pyc'));
    const absent: string[] = [];
    const differ: string[] = [];
    for (const file of files) {
      const packed = path.join(target, file);
      if (!fs.existsSync(packed)) absent.push(file);
      else if (!fs.readFileSync(packed).equals(fs.readFileSync(path.join(source, file)))) differ.push(file);
    }
    if (absent.length) problems.push(`${to}: missing ${some(absent)}`);
    if (differ.length) problems.push(`${to}: differs from ${from}: ${some(differ)}`);
    count += files.length;
  }
  if (problems.length) return fail(name, problems.join('; '));
  return pass(name, `${config.extraResources.map((r) => r.to).join(', ')}: ${count} files as in the source`);
}

/** Every .node addon is built for Electron's ABI and the app's CPU, in the platform's format. */
export function checkNativeModules(layout: AppLayout, electronAbi: number, arch: Arch | null): Check {
  const name = 'native modules';
  const unpacked = path.join(layout.resources, 'app.asar.unpacked');
  const addons = fs.existsSync(unpacked) ? walkFiles(unpacked).filter((f) => f.endsWith('.node')) : [];
  if (!addons.some((f) => f.endsWith('better_sqlite3.node'))) return fail(name, `no better_sqlite3.node in ${unpacked} (asarUnpack '**/*.node' must unpack it)`);
  const problems: string[] = [];
  const seen: string[] = [];
  for (const file of addons) {
    const info = addonInfo(fs.readFileSync(path.join(unpacked, file)));
    const label = file.split('/').pop()!;
    if (info.format !== PLATFORM_FORMAT[layout.platform]) problems.push(`${file}: is ${info.format}, not ${PLATFORM_FORMAT[layout.platform]}`);
    if (arch && !info.arches.includes(arch)) problems.push(`${file}: built for ${info.arches.join('+') || 'an unknown CPU'}, the app is ${arch}`);
    if (info.abi !== null && info.abi !== electronAbi) problems.push(`${file}: built for NODE_MODULE_VERSION ${info.abi}, Electron needs ${electronAbi} (the rebuild for Electron did not run: npmRebuild)`);
    if (info.abi === null && !info.napi) problems.push(`${file}: registers neither node_register_module_v<N> nor napi_register_module_v1, so its ABI cannot be told`);
    seen.push(`${label} ${info.abi !== null ? `ABI ${info.abi}` : 'N-API'}`);
  }
  if (problems.length) return fail(name, problems.join('; '));
  return pass(name, `${seen.join(', ')} (Electron's ABI ${electronAbi}${arch ? `, ${arch}` : ''})`);
}

/** The fuse wire read back from the binary equals electronFuses of electron-builder.yml. */
export async function checkFuses(layout: AppLayout, config: BuilderConfig): Promise<Check> {
  const name = 'fuses';
  let wire: Record<number, number>;
  try {
    wire = await getCurrentFuseWire(layout.fuseTarget);
  } catch (error) {
    return fail(name, `${layout.fuseTarget}: ${(error as Error).message}`);
  }
  const problems = compareWire(wire, config.electronFuses);
  if (problems.length) return fail(name, problems.join('; '));
  return pass(name, `${Object.keys(config.electronFuses).length} fuses as electron-builder.yml sets them`);
}

/** The unpacked app, and each release artifact given, within its size limit. */
export function checkSizes(layout: AppLayout, maxAppMiB: number, artifacts: string[], maxArtifactMiB: number): Check {
  const name = 'size';
  const mib = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;
  const appBytes = diskBytes(layout.root);
  const problems: string[] = [];
  if (mib(appBytes) > maxAppMiB) problems.push(`the unpacked app is ${mib(appBytes)} MiB, over the ${maxAppMiB} MiB limit`);
  const sizes = artifacts.map((file) => ({ file: path.basename(file), size: mib(fs.statSync(file).size) }));
  for (const { file, size } of sizes) if (size > maxArtifactMiB) problems.push(`${file} is ${size} MiB, over the ${maxArtifactMiB} MiB limit`);
  if (problems.length) return fail(name, problems.join('; '));
  return pass(name, [`app ${mib(appBytes)} MiB (limit ${maxAppMiB})`, ...sizes.map((s) => `${s.file} ${s.size} MiB (limit ${maxArtifactMiB})`)].join(', '));
}
