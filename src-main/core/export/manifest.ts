import { createHash } from 'node:crypto';

export const MANIFEST_FILE = 'manifest.json';
/** The current format. Format 1's digest covered only the file list (see `verify`). */
export const EXPORT_FORMAT = 'openai4s-session-export/2';
export const EXPORT_FORMAT_V1 = 'openai4s-session-export/1';

export interface ManifestEntry {
  path: string;
  bytes: number;
  sha256: string;
}

/** The installation key that signed a package (see signing.ts). */
export interface ManifestSigner {
  algorithm: 'ed25519';
  /** The public key, DER SubjectPublicKeyInfo in base64. */
  publicKey: string;
}

export interface Manifest {
  format: typeof EXPORT_FORMAT;
  /** When the package was written. */
  createdAt: string;
  app: { name: string; version: string };
  session: { id: string; title: string; createdAt: string };
  /** Sorted by path (UTF-16 code units), each path once. */
  files: ManifestEntry[];
  signer: ManifestSigner | null;
  /** sha256 (hex) of the canonical manifest: every field above. */
  digest: string;
  /** ed25519 signature (base64) of the canonical manifest by `signer`, or null when unsigned. */
  signature: string | null;
}

/** Format 1, still verified: its digest pins the files but not the session, times or versions. */
export interface ManifestV1 {
  format: typeof EXPORT_FORMAT_V1;
  createdAt: string;
  app: { name: string; version: string };
  session: { id: string; title: string };
  files: ManifestEntry[];
  digest: string;
}

export type AnyManifest = Manifest | ManifestV1;

export const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

/** Code-unit order, the order of JavaScript's default sort and of the canonical form. */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Canonical JSON: no whitespace; object keys sorted by UTF-16 code units; strings escaped
 * exactly as ECMAScript's JSON.stringify escapes them; arrays in their order; numbers must
 * be safe integers (the only numbers a manifest has are byte counts); null, true, false.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`canonical JSON holds only safe integers, not ${value}`);
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const keys = Object.keys(value).sort(byCodeUnits);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  throw new Error(`canonical JSON cannot hold a ${typeof value}`);
}

/**
 * The bytes the digest hashes and the signature signs (format 2): the UTF-8 encoding of
 * the canonical JSON of the manifest without `digest` and `signature`, that is
 *
 *   {"app":{"name":…,"version":…},"createdAt":…,"files":[{"bytes":…,"path":…,"sha256":…},…],
 *    "format":"openai4s-session-export/2","session":{"createdAt":…,"id":…,"title":…},
 *    "signer":null | {"algorithm":"ed25519","publicKey":…}}
 *
 * Every field a reader sees is in it, the signer's key included, so nothing in the
 * manifest can change without changing the digest (and breaking a signature).
 */
export function manifestPayload(m: Omit<Manifest, 'digest' | 'signature'>): Uint8Array {
  const covered = {
    format: m.format,
    createdAt: m.createdAt,
    app: { name: m.app.name, version: m.app.version },
    session: { id: m.session.id, title: m.session.title, createdAt: m.session.createdAt },
    files: m.files.map((f) => ({ path: f.path, bytes: f.bytes, sha256: f.sha256 })),
    signer: m.signer ? { algorithm: m.signer.algorithm, publicKey: m.signer.publicKey } : null,
  };
  return new TextEncoder().encode(canonicalJson(covered));
}

/** Format 1's digest: sha256 of the JSON of [path, bytes, sha256] triples sorted by path. */
export function filesDigestV1(files: readonly ManifestEntry[]): string {
  const sorted = [...files].sort((a, b) => byCodeUnits(a.path, b.path));
  return sha256(JSON.stringify(sorted.map((f) => [f.path, f.bytes, f.sha256])));
}

/** Signs a canonical manifest; the installation key of signing.ts is one. */
export interface ManifestSigningKey {
  signer: ManifestSigner;
  sign(payload: Uint8Array): string;
}

export function buildManifest(
  files: ReadonlyMap<string, Uint8Array>,
  meta: Pick<Manifest, 'createdAt' | 'app' | 'session'>,
  key: ManifestSigningKey | null = null,
): Manifest {
  const entries = [...files.entries()].map(([path, bytes]) => ({ path, bytes: bytes.byteLength, sha256: sha256(bytes) })).sort((a, b) => byCodeUnits(a.path, b.path));
  const unsigned = { format: EXPORT_FORMAT, ...meta, files: entries, signer: key?.signer ?? null } as const;
  const payload = manifestPayload(unsigned);
  return { ...unsigned, digest: sha256(payload), signature: key ? key.sign(payload) : null };
}
