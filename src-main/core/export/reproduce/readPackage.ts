import fs from 'node:fs';
import { MANIFEST_FILE } from '../manifest';
import { verifyExport, type VerifyReport } from '../verify';
import { readZipDirectory } from '../zipDirectory';
import { streamEntry } from '../zipInflate';
import { DEFAULT_ZIP_LIMITS } from '../zipLimits';

export type OpenedPackage = { verify: VerifyReport; files: Map<string, Uint8Array>; refused: null } | { verify: VerifyReport; files: null; refused: string };

/**
 * A package read for reproduction, `verify` first. A hostile or unreadable package (or one
 * with no usable manifest) is refused before anything of it runs. A package that is only
 * edited (a file changed since export) is read as it is: reproducing an edited package is
 * how one sees what an edit changes (issue 25: an edited recorded answer is reported by the
 * artifacts it changes), and the report carries verify's problems. It runs, like any
 * package, only in the sandboxed kernel.
 */
export function openPackage(file: string, ownPublicKey: string | null = null): OpenedPackage {
  const verify = verifyExport(file, { ownPublicKey });
  const refusal = verify.issues.find((i) => i.kind === 'refused') ?? (verify.manifest ? null : verify.issues[0]);
  if (refusal || !verify.manifest) return { verify, files: null, refused: refusal?.message ?? `${MANIFEST_FILE}: missing` };
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
