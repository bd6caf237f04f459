import fs from 'node:fs';
import { MANIFEST_FILE } from '../manifest';
import { verifyExport, type VerifyReport } from '../verify';
import { readZipDirectory } from '../zipDirectory';
import { streamEntry } from '../zipInflate';
import { DEFAULT_ZIP_LIMITS } from '../zipLimits';

export type OpenedPackage = { verify: VerifyReport; files: Map<string, Uint8Array>; refused: null } | { verify: VerifyReport; files: null; refused: string };

/** verify's findings as one line: the first problem, and how many more. */
function notVerified(file: string, verify: VerifyReport): string {
  const [first, ...rest] = verify.problems;
  const more = rest.length ? `, and ${rest.length} more problem${rest.length === 1 ? '' : 's'}` : '';
  return `${file} does not match its manifest (${first ?? `${MANIFEST_FILE}: missing`}${more}), so nothing of it was run; see openai4s verify ${file}, or export the session again.`;
}

/**
 * A package read for reproduction, `verify` first. A package that does not verify (hostile,
 * unreadable, or a file changed since export without its manifest re-hashed) is refused
 * before anything of it runs: its notebook is then code nobody vouched for, and running it
 * in the user's kernel would be running whatever the edit put there.
 */
export function openPackage(file: string, ownPublicKey: string | null = null): OpenedPackage {
  const verify = verifyExport(file, { ownPublicKey });
  const refusal = verify.issues.find((i) => i.kind === 'refused');
  if (refusal) return { verify, files: null, refused: refusal.message };
  if (!verify.ok || !verify.manifest) return { verify, files: null, refused: notVerified(file, verify) };
  const fd = fs.openSync(file, 'r');
  try {
    const entries = new Map(readZipDirectory(fd, DEFAULT_ZIP_LIMITS).map((e) => [e.name, e]));
    const budget = { total: 0 };
    const files = new Map<string, Uint8Array>();
    for (const listed of verify.manifest.files) {
      const entry = entries.get(listed.path);
      if (!entry || entry.isDirectory) continue; // verify named it missing
      const parts: Uint8Array[] = [];
      streamEntry(fd, entry, DEFAULT_ZIP_LIMITS, budget, (bytes) => parts.push(bytes));
      files.set(listed.path, Buffer.concat(parts));
    }
    return { verify, files, refused: null };
  } finally {
    fs.closeSync(fd);
  }
}
