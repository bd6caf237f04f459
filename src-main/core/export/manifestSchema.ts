import { EXPORT_FORMAT, EXPORT_FORMAT_V1, MANIFEST_FILE, type AnyManifest } from './manifest';

/**
 * Checks a parsed manifest's shape. Format 2 is strict (no field the digest would not
 * cover, so a reader is never shown an unpinned value); format 1 is read as it was
 * written, and `verify` says what its digest does not cover.
 */
export type ParsedManifest = { manifest: AnyManifest; error: null } | { manifest: null; error: string };

const HEX64 = /^[0-9a-f]{64}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const FILE_LIST_ERROR = `${MANIFEST_FILE}: its file list is missing or malformed (each entry needs path, bytes and sha256)`;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const hasExactly = (v: Record<string, unknown>, keys: readonly string[]) => Object.keys(v).length === keys.length && keys.every((k) => Object.hasOwn(v, k));
const isString = (v: unknown): v is string => typeof v === 'string';

function isFileEntry(f: unknown, strict: boolean): boolean {
  if (!isObject(f) || !isString(f.path) || !isString(f.sha256) || typeof f.bytes !== 'number') return false;
  if (!strict) return true;
  return hasExactly(f, ['path', 'bytes', 'sha256']) && Number.isSafeInteger(f.bytes) && f.bytes >= 0 && HEX64.test(f.sha256);
}

function checkV2(m: Record<string, unknown>): string | null {
  const fields = ['format', 'createdAt', 'app', 'session', 'files', 'signer', 'digest', 'signature'];
  if (!Array.isArray(m.files) || !m.files.every((f) => isFileEntry(f, true))) return FILE_LIST_ERROR;
  const extra = Object.keys(m).filter((k) => !fields.includes(k));
  if (extra.length) return `${MANIFEST_FILE}: unexpected field ${JSON.stringify(extra[0])} (format 2 has only ${fields.join(', ')}; an extra field would not be covered by the digest)`;
  if (!isString(m.createdAt)) return `${MANIFEST_FILE}: createdAt must be a string`;
  if (!isObject(m.app) || !hasExactly(m.app, ['name', 'version']) || !isString(m.app.name) || !isString(m.app.version)) return `${MANIFEST_FILE}: app must be exactly { name, version } strings`;
  const s = m.session;
  if (!isObject(s) || !hasExactly(s, ['id', 'title', 'createdAt']) || !isString(s.id) || !isString(s.title) || !isString(s.createdAt)) {
    return `${MANIFEST_FILE}: session must be exactly { id, title, createdAt } strings`;
  }
  const signer = m.signer;
  if (signer !== null && (!isObject(signer) || !hasExactly(signer, ['algorithm', 'publicKey']) || signer.algorithm !== 'ed25519' || !isString(signer.publicKey) || !BASE64.test(signer.publicKey))) {
    return `${MANIFEST_FILE}: signer must be null or { algorithm: "ed25519", publicKey: <base64> }`;
  }
  if (!isString(m.digest) || !HEX64.test(m.digest)) return `${MANIFEST_FILE}: digest must be 64 lowercase hex digits`;
  if (m.signature !== null && (!isString(m.signature) || !BASE64.test(m.signature))) return `${MANIFEST_FILE}: signature must be null or base64`;
  return null;
}

function checkV1(m: Record<string, unknown>): string | null {
  if (!Array.isArray(m.files) || !m.files.every((f) => isFileEntry(f, false))) return FILE_LIST_ERROR;
  if (!isString(m.digest)) return `${MANIFEST_FILE}: digest must be a string`;
  return null;
}

export function parseManifest(text: string): ParsedManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { manifest: null, error: `${MANIFEST_FILE}: not valid JSON` };
  }
  if (!isObject(value)) return { manifest: null, error: `${MANIFEST_FILE}: not a JSON object` };
  const check = value.format === EXPORT_FORMAT ? checkV2 : value.format === EXPORT_FORMAT_V1 ? checkV1 : null;
  if (!check) return { manifest: null, error: `${MANIFEST_FILE}: unknown format ${JSON.stringify(value.format)} (this version reads ${EXPORT_FORMAT} and ${EXPORT_FORMAT_V1})` };
  const error = check(value);
  return error ? { manifest: null, error } : { manifest: value as unknown as AnyManifest, error: null };
}
