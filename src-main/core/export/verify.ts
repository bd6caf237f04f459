import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { EXPORT_FORMAT, MANIFEST_FILE, filesDigestV1, manifestPayload, type AnyManifest } from './manifest';
import { parseManifest } from './manifestSchema';
import { packageFileProblem } from './packageFile';
import { checkSignature, type SignatureCheck } from './signing';
import { ZipRefusal, readZipDirectory, type ZipEntry } from './zipDirectory';
import { checkManifestEntries, checkZipEntries } from './zipEntryChecks';
import { streamEntry, type InflateBudget } from './zipInflate';
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zipLimits';
import { errorMessage } from '../shared/errorMessage';

export interface VerifyIssue {
  /** refused: hostile or unreadable package (verification stopped); the others: it does not match its manifest. */
  kind: 'refused' | 'changed' | 'missing' | 'unlisted' | 'manifest' | 'signature';
  message: string;
  entry?: string;
  limit?: string;
}

export interface VerifyReport {
  ok: boolean;
  checked: number;
  /** Each problem names the file: refused, changed, missing, unlisted, or a manifest that does not add up. */
  problems: string[];
  issues: VerifyIssue[];
  manifest: AnyManifest | null;
  format: string | null;
  /** The manifest fields the digest (and a signature) pins. */
  covers: string[];
  /** What this package's format leaves unpinned (format 1), said plainly. */
  notes: string[];
  signature: SignatureCheck;
}

export interface VerifyOptions {
  limits?: Partial<ZipLimits>;
  /** This installation's public key (base64 DER), to say whether a signature is our own. */
  ownPublicKey?: string | null;
  /** Sees every inflated step: entry name and bytes (tests count memory with it). */
  onInflate?: (entry: string, bytes: number) => void;
}

const COVERS_V2 = ['format', 'createdAt', 'app.name', 'app.version', 'session.id', 'session.title', 'session.createdAt', 'files[].path', 'files[].bytes', 'files[].sha256', 'signer'];
const COVERS_V1 = ['files[].path', 'files[].bytes', 'files[].sha256'];
const V1_NOTE =
  'format openai4s-session-export/1: its digest covers only the file list; the session id and title, the export time, the app version and the format are not covered, and the package carries no signature. Export the session again for a package that pins them.';
const NO_SIGNATURE: SignatureCheck = { status: 'unsigned', fingerprint: null, ownKey: null, summary: 'unsigned' };

/**
 * Checks an export without trusting it: the zip's structure and names first (nothing
 * inflated), then the manifest (bounded), its digest and signature, then every listed
 * entry streamed and re-hashed under the size and ratio limits. A hostile package is
 * refused at the first sign, naming the entry and the limit.
 */
export function verifyExport(file: string, options: VerifyOptions = {}): VerifyReport {
  const limits = { ...DEFAULT_ZIP_LIMITS, ...options.limits };
  const report: VerifyReport = { ok: false, checked: 0, problems: [], issues: [], manifest: null, format: null, covers: [], notes: [], signature: NO_SIGNATURE };
  const add = (issue: VerifyIssue) => {
    report.issues.push(issue);
    report.problems.push(issue.message);
  };
  const notAPackage = packageFileProblem(file);
  if (notAPackage) {
    add({ kind: 'refused', message: notAPackage });
    return report;
  }
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    add({ kind: 'refused', message: `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? errorMessage(error)})` });
    return report;
  }
  try {
    verifyOpenZip(fd, file, limits, options, report, add);
  } catch (error) {
    if (!(error instanceof ZipRefusal)) throw error;
    add({ kind: 'refused', message: error.message, ...(error.entry ? { entry: error.entry } : {}), ...(error.limit ? { limit: error.limit } : {}) });
  } finally {
    fs.closeSync(fd);
  }
  report.ok = report.issues.length === 0;
  return report;
}

function verifyOpenZip(fd: number, file: string, limits: ZipLimits, options: VerifyOptions, report: VerifyReport, add: (issue: VerifyIssue) => void): void {
  let entries: ZipEntry[];
  try {
    entries = readZipDirectory(fd, limits);
  } catch (error) {
    if (error instanceof ZipRefusal && !error.entry) throw new ZipRefusal(`${file}: not a readable zip (${error.message})`, null, error.limit);
    throw error;
  }
  const refusals = checkZipEntries(entries, limits);
  for (const r of refusals) add({ kind: 'refused', message: r.message, ...(r.entry ? { entry: r.entry } : {}), ...(r.limit ? { limit: r.limit } : {}) });
  if (refusals.length) return;

  const budget: InflateBudget = { total: 0 };
  const stream = (entry: ZipEntry, onData: (bytes: Uint8Array) => void, entryLimits = limits) => streamEntry(fd, entry, entryLimits, budget, onData, options.onInflate);
  // Folder entries declare no data; inflating them (bounded to 0 bytes) proves they carry none.
  for (const dir of entries.filter((e) => e.isDirectory)) stream(dir, () => {});

  const manifestEntry = entries.find((e) => e.name === MANIFEST_FILE);
  if (!manifestEntry) return add({ kind: 'manifest', message: `${MANIFEST_FILE}: missing` });
  if (manifestEntry.size > limits.maxManifestBytes) {
    throw new ZipRefusal(`"${MANIFEST_FILE}": refused: it declares ${manifestEntry.size} bytes, more than the manifest limit (maxManifestBytes)`, MANIFEST_FILE, 'maxManifestBytes');
  }
  const parts: Uint8Array[] = [];
  stream(manifestEntry, (bytes) => parts.push(bytes), { ...limits, maxEntryBytes: Math.min(limits.maxEntryBytes, limits.maxManifestBytes) });
  const parsed = parseManifest(Buffer.concat(parts).toString('utf8'));
  if (!parsed.manifest) return add({ kind: 'manifest', message: parsed.error });
  const manifest = parsed.manifest;
  report.manifest = manifest;
  report.format = manifest.format;
  report.checked = manifest.files.length;

  const listRefusals = checkManifestEntries(manifest.files, manifest.format === EXPORT_FORMAT);
  for (const r of listRefusals) add({ kind: 'refused', message: r.message, ...(r.entry ? { entry: r.entry } : {}) });
  if (listRefusals.length) return;

  if (manifest.format === EXPORT_FORMAT) {
    report.covers = COVERS_V2;
    const payload = manifestPayload(manifest);
    if (createHash('sha256').update(payload).digest('hex') !== manifest.digest) add({ kind: 'manifest', message: `${MANIFEST_FILE}: its digest does not match its contents (the manifest was edited)` });
    report.signature = checkSignature(manifest, payload, options.ownPublicKey ?? null);
    if (report.signature.status === 'invalid') add({ kind: 'signature', message: `${MANIFEST_FILE}: ${report.signature.summary}` });
  } else {
    report.covers = COVERS_V1;
    report.notes.push(V1_NOTE);
    report.signature = { ...NO_SIGNATURE, summary: 'unsigned (format 1 packages carry no signature)' };
    if (filesDigestV1(manifest.files) !== manifest.digest) add({ kind: 'manifest', message: `${MANIFEST_FILE}: its digest does not match its file list (the manifest was edited)` });
  }

  const byName = new Map(entries.map((e) => [e.name, e]));
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const entry of entries) {
    if (!entry.isDirectory && entry.name !== MANIFEST_FILE && !listed.has(entry.name)) add({ kind: 'unlisted', message: `${entry.name}: not listed in the manifest`, entry: entry.name });
  }
  for (const listedFile of manifest.files) {
    const entry = byName.get(listedFile.path);
    if (!entry || entry.isDirectory) {
      add({ kind: 'missing', message: `${listedFile.path}: missing`, entry: listedFile.path });
      continue;
    }
    const hash = createHash('sha256');
    stream(entry, (bytes) => hash.update(bytes));
    const actual = hash.digest('hex');
    if (entry.size !== listedFile.bytes || actual !== listedFile.sha256) {
      add({ kind: 'changed', message: `${listedFile.path}: changed (${entry.size} bytes, sha256 ${actual}; manifest says ${listedFile.bytes} bytes, ${listedFile.sha256})`, entry: listedFile.path });
    }
  }
}
