import fs from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { EXPORT_FORMAT, MANIFEST_FILE, filesDigest, sha256, type Manifest } from './manifest';

export interface VerifyReport {
  ok: boolean;
  checked: number;
  /** Each problem names the file: changed, missing, unlisted, or a manifest that does not add up. */
  problems: string[];
  manifest: Manifest | null;
}

/** Re-hashes every file of an export against its manifest, and the manifest against its digest. */
export function verifyExport(file: string): VerifyReport {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(new Uint8Array(fs.readFileSync(file)));
  } catch (error) {
    return { ok: false, checked: 0, problems: [`${file}: not a readable zip (${(error as Error).message})`], manifest: null };
  }
  const raw = entries[MANIFEST_FILE];
  if (!raw) return { ok: false, checked: 0, problems: [`${MANIFEST_FILE}: missing`], manifest: null };
  let manifest: Manifest;
  try {
    manifest = JSON.parse(strFromU8(raw)) as Manifest;
  } catch {
    return { ok: false, checked: 0, problems: [`${MANIFEST_FILE}: not valid JSON`], manifest: null };
  }
  const problems: string[] = [];
  if (manifest.format !== EXPORT_FORMAT) problems.push(`${MANIFEST_FILE}: unknown format ${JSON.stringify(manifest.format)}`);
  const wellFormed = (f: unknown): f is { path: string; bytes: number; sha256: string } =>
    typeof f === 'object' && f !== null && typeof (f as { path?: unknown }).path === 'string' && typeof (f as { bytes?: unknown }).bytes === 'number' && typeof (f as { sha256?: unknown }).sha256 === 'string';
  if (!Array.isArray(manifest.files) || !manifest.files.every(wellFormed)) {
    return { ok: false, checked: 0, problems: [`${MANIFEST_FILE}: its file list is missing or malformed (each entry needs path, bytes and sha256)`], manifest };
  }
  if (filesDigest(manifest.files) !== manifest.digest) problems.push(`${MANIFEST_FILE}: its digest does not match its file list (the manifest was edited)`);
  const listed = new Set<string>();
  for (const entry of manifest.files) {
    listed.add(entry.path);
    const bytes = entries[entry.path];
    if (!bytes) problems.push(`${entry.path}: missing`);
    else if (bytes.byteLength !== entry.bytes || sha256(bytes) !== entry.sha256) problems.push(`${entry.path}: changed (sha256 ${sha256(bytes)}, manifest says ${entry.sha256})`);
  }
  for (const name of Object.keys(entries)) {
    if (name !== MANIFEST_FILE && !name.endsWith('/') && !listed.has(name)) problems.push(`${name}: not listed in the manifest`);
  }
  return { ok: problems.length === 0, checked: manifest.files.length, problems, manifest };
}
