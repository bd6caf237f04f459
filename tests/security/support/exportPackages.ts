import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { createCore } from '../../../src-main/core/core';
import { exportSession } from '../../../src-main/core/export/exportSession';
import { rawZip, type RawEntry } from './rawZip';

/**
 * Genuine exports to start attacks from, and a forger that does what an attacker can:
 * recompute every sha256 and the digest from the documented canonical form (written
 * here independently of src-main, so the tests also pin the documentation).
 */

export interface GenuineExport {
  dataDir: string;
  zipFile: string;
  /** The files of the zip, in zip order, manifest.json included. */
  files: Map<string, Uint8Array>;
  manifest: Record<string, unknown> & { files: { path: string; bytes: number; sha256: string }[] };
}

const made: string[] = [];

export async function genuineExport(options: { sign?: boolean; dataDir?: string } = {}): Promise<GenuineExport> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-sec-export-'));
  made.push(dataDir);
  const core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dataDir, OPENAI4S_KERNEL_PREWARM: '0' } });
  try {
    const session = core.ledger.createSession('人胰岛素 / INS');
    const zipFile = path.join(dataDir, `export-${made.length}.zip`);
    exportSession(core, session.id, zipFile, [], { sign: options.sign ?? true });
    const files = new Map(Object.entries(unzipSync(new Uint8Array(fs.readFileSync(zipFile)))));
    const manifest = JSON.parse(Buffer.from(files.get('manifest.json')!).toString('utf8'));
    return { dataDir, zipFile, files, manifest };
  } finally {
    await core.close();
  }
}

export function removeExports(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

const sha256 = (bytes: Uint8Array | string) => crypto.createHash('sha256').update(bytes).digest('hex');

/** Canonical JSON as the manifest documents it: sorted keys, no whitespace. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export const canonicalDigest = (manifest: Record<string, unknown>): string => {
  const { digest: _digest, signature: _signature, ...covered } = manifest;
  return sha256(canonical(covered));
};

export type Signing = 'keep-stale' | 'drop' | { attackerKey: crypto.KeyObject };

/**
 * An attacker's manifest for `files` (manifest.json excluded): every size and sha256
 * recomputed, the file list sorted by path (duplicates kept), `changes` applied,
 * the digest recomputed; the signature kept (now stale), dropped, or made with another key.
 */
export function forgeManifest(
  original: Record<string, unknown>,
  files: readonly (readonly [string, Uint8Array])[],
  changes: Record<string, unknown> = {},
  signing: Signing = 'keep-stale',
): Record<string, unknown> {
  const list = files
    .filter(([name]) => name !== 'manifest.json')
    .map(([name, bytes]) => ({ path: name, bytes: bytes.byteLength, sha256: sha256(bytes) }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const forged: Record<string, unknown> = { ...original, files: list, ...changes };
  if (signing === 'drop') forged.signer = null;
  if (typeof signing === 'object') {
    forged.signer = { algorithm: 'ed25519', publicKey: crypto.createPublicKey(signing.attackerKey).export({ type: 'spki', format: 'der' }).toString('base64') };
  }
  forged.digest = canonicalDigest(forged);
  if (signing === 'drop') forged.signature = null;
  if (typeof signing === 'object') {
    const { digest: _d, signature: _s, ...covered } = forged;
    forged.signature = crypto.sign(null, Buffer.from(canonical(covered)), signing.attackerKey).toString('base64');
  }
  return forged;
}

/** A format-1 manifest (its digest over the sorted [path, bytes, sha256] triples only). */
export function forgeV1Manifest(original: Record<string, unknown>, files: readonly (readonly [string, Uint8Array])[]): Record<string, unknown> {
  const list = files.filter(([name]) => name !== 'manifest.json').map(([name, bytes]) => ({ path: name, bytes: bytes.byteLength, sha256: sha256(bytes) }));
  const sorted = [...list].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const session = original.session as { id: string; title: string };
  return {
    format: 'openai4s-session-export/1',
    createdAt: original.createdAt,
    app: original.app,
    session: { id: session.id, title: session.title },
    files: list,
    digest: sha256(JSON.stringify(sorted.map((f) => [f.path, f.bytes, f.sha256]))),
  };
}

export const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value, null, 2));

/** Writes entries as a zip next to the genuine export and returns its path. */
export function writePackage(genuine: GenuineExport, name: string, entries: readonly RawEntry[]): string {
  const file = path.join(genuine.dataDir, `${name}.zip`);
  fs.writeFileSync(file, rawZip(entries));
  return file;
}

/** The genuine files plus or minus some, with a forged manifest listing exactly them. */
export function withForgedManifest(genuine: GenuineExport, files: readonly (readonly [string, Uint8Array])[], changes: Record<string, unknown> = {}, signing: Signing = 'drop'): RawEntry[] {
  const manifest = forgeManifest(genuine.manifest, files, changes, signing);
  return [...files.filter(([n]) => n !== 'manifest.json').map(([n, data]) => ({ name: n, data })), { name: 'manifest.json', data: json(manifest) }];
}
