/**
 * Builds a real file tree laid out like electron-builder's unpacked app (linux-unpacked/ or
 * mac-arm64/OpenAI4S.app): an executable with the ELF or Mach-O header of its platform and
 * a fuse wire behind @electron/fuses' sentinel, an app.asar made by @electron/asar (with
 * its per-file integrity hashes and *.node unpacked), an addon whose registration symbol
 * names an ABI, and the extra resources copied from this checkout.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { createPackageWithOptions, getRawHeader } from '@electron/asar';
import plist from 'plist';
import { readBuilderConfig } from '../../scripts/release/appLayout';

export const root = path.resolve(__dirname, '../..');
export const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** Electron's wire before any flip: RunAsNode on, cookie encryption off, ... (as shipped). */
const SHIPPED_WIRE = [1, 0, 1, 1, 0, 0, 0, 1];

export function elfHeader(machine: number): Buffer {
  const head = Buffer.alloc(64);
  head.writeUInt32BE(0x7f454c46, 0);
  head[4] = 2; // 64-bit
  head[5] = 1; // little-endian
  head.writeUInt16LE(machine, 18);
  return head;
}

function machoHeader(cpu: number): Buffer {
  const head = Buffer.alloc(32);
  head.writeUInt32LE(0xfeedfacf, 0);
  head.writeUInt32LE(cpu, 4);
  return head;
}

/** An executable-like file: the header, filler, then the sentinel and a V1 wire of 8 fuses. */
export function fakeElectronBinary(header: Buffer, wire = SHIPPED_WIRE): Buffer {
  return Buffer.concat([header, Buffer.alloc(4096, 0x90), Buffer.from(SENTINEL, 'ascii'), Buffer.from([1, wire.length]), Buffer.from(wire.map((on) => (on ? 0x31 : 0x30))), Buffer.alloc(512, 0x90)]);
}

/** An addon: the header, and the registration symbol in its string table. */
export function fakeAddon(header: Buffer, abi: number | 'napi'): Buffer {
  const symbol = abi === 'napi' ? 'napi_register_module_v1' : `node_register_module_v${abi}`;
  return Buffer.concat([header, Buffer.alloc(1024), Buffer.from(`\0sqlite3_open_v2\0${symbol}\0`, 'latin1'), Buffer.alloc(256)]);
}

export interface FixtureOptions {
  platform?: 'linux' | 'darwin';
  abi: number | 'napi';
  /** Leave these node_modules packages out of the archive. */
  omitPackages?: string[];
}

const CPU = { linux: { header: () => elfHeader(0x3e) }, darwin: { header: () => machoHeader(0x0100000c) } };

/** Writes the app under `dir`; returns the folder to hand to verify-release and the parts. */
export async function buildFixtureApp(dir: string, options: FixtureOptions): Promise<{ appDir: string; resources: string; fuseFile: string; executable: string }> {
  const platform = options.platform ?? 'linux';
  const config = readBuilderConfig(root);
  const version = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const header = CPU[platform].header;
  let appDir: string;
  let resources: string;
  let fuseFile: string;
  let executable: string;
  if (platform === 'linux') {
    appDir = path.join(dir, 'linux-unpacked');
    resources = path.join(appDir, 'resources');
    executable = fuseFile = path.join(appDir, config.linux.executableName);
    fs.mkdirSync(resources, { recursive: true });
    fs.writeFileSync(executable, fakeElectronBinary(header()), { mode: 0o755 });
  } else {
    appDir = path.join(dir, 'mac-arm64');
    const contents = path.join(appDir, `${config.productName}.app`, 'Contents');
    resources = path.join(contents, 'Resources');
    executable = path.join(contents, 'MacOS', config.productName);
    fuseFile = path.join(contents, 'Frameworks', 'Electron Framework.framework', 'Electron Framework');
    for (const d of [resources, path.dirname(executable), path.dirname(fuseFile)]) fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(executable, Buffer.concat([header(), Buffer.alloc(256)]), { mode: 0o755 });
    fs.writeFileSync(fuseFile, fakeElectronBinary(header()));
  }

  // The app directory electron-builder packs: package.json, out/, production node_modules.
  const stage = path.join(dir, 'stage');
  const write = (rel: string, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(stage, rel)), { recursive: true });
    fs.writeFileSync(path.join(stage, rel), content);
  };
  write('package.json', JSON.stringify({ name: 'openai4s-desktop', version, main: 'out/main/index.js' }));
  write('out/main/index.js', '"use strict";\nconst electron = require("electron");\nconst fs = require("node:fs");\nconst Database = require("better-sqlite3");\nconst { z } = require("zod");\nrequire("./chunks/part.js");\n');
  write('out/main/chunks/part.js', 'const YAML = require("yaml");\nconst { Client } = require("@modelcontextprotocol/sdk/client/index.js");\n');
  write('out/preload/index.js', 'const { contextBridge } = require("electron");\n');
  write('out/renderer/index.html', '<!doctype html><title>OpenAI4S</title>\n');
  const packages = ['zod', 'yaml', '@modelcontextprotocol/sdk', 'better-sqlite3'].filter((p) => !options.omitPackages?.includes(p));
  for (const p of packages) write(`node_modules/${p}/package.json`, JSON.stringify({ name: p, version: '1.0.0' }));
  if (packages.includes('better-sqlite3')) write('node_modules/better-sqlite3/build/Release/better_sqlite3.node', fakeAddon(header(), options.abi));
  await createPackageWithOptions(stage, path.join(resources, 'app.asar'), { unpack: '*.node' });
  if (platform === 'darwin') {
    // What electron-builder writes into Info.plist: the sha256 of the archive's header.
    const hash = createHash('sha256').update(getRawHeader(path.join(resources, 'app.asar')).headerString).digest('hex');
    const info = { CFBundleExecutable: config.productName, ElectronAsarIntegrity: { 'Resources/app.asar': { algorithm: 'SHA256', hash } } };
    fs.writeFileSync(path.join(resources, '..', 'Info.plist'), plist.build(info));
  }

  for (const { from, to } of config.extraResources) {
    fs.cpSync(path.join(root, from), path.join(resources, to), { recursive: true, filter: (src) => !src.includes('__pycache__') && !src.endsWith('.pyc') });
  }
  return { appDir, resources, fuseFile, executable };
}
