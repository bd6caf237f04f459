import { createHash } from 'node:crypto';

export const MANIFEST_FILE = 'manifest.json';
export const EXPORT_FORMAT = 'openai4s-session-export/1';

export interface ManifestEntry {
  path: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: string;
  createdAt: string;
  app: { name: string; version: string };
  session: { id: string; title: string };
  files: ManifestEntry[];
  /** sha256 of the canonical JSON of `files` (sorted by path): one value that pins them all. */
  digest: string;
}

export const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

export function filesDigest(files: readonly ManifestEntry[]): string {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return sha256(JSON.stringify(sorted.map((f) => [f.path, f.bytes, f.sha256])));
}

export function buildManifest(
  files: ReadonlyMap<string, Uint8Array>,
  meta: Omit<Manifest, 'files' | 'digest' | 'format'>,
): Manifest {
  const entries = [...files.entries()]
    .map(([path, bytes]) => ({ path, bytes: bytes.byteLength, sha256: sha256(bytes) }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  return { format: EXPORT_FORMAT, ...meta, files: entries, digest: filesDigest(entries) };
}
