import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openPackage } from './reproduce/readPackage';
import { installationPublicKey } from './signing';

/** What the app tells the user about a package it was asked to open (a double-click). */
export interface ReceivedPackage {
  file: string;
  /** Every listed file matches the manifest, and a signature, if any, checks out. */
  verified: boolean;
  title: string | null;
  sessionId: string | null;
  exportedAt: string | null;
  appVersion: string | null;
  files: number;
  signature: string;
  /** Why it was not opened: refused outright, or the files that do not match. */
  problems: string[];
  /** Where a verified package was unpacked (README.md, notebook.ipynb, artifacts/...). */
  folder: string | null;
}

/** A folder name that is safe on every file system, from the session id or the file's hash. */
function folderName(sessionId: string | null, digest: string): string {
  const id = (sessionId ?? 'package').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return `${id}-${digest.slice(0, 12)}`;
}

/**
 * Opens an exported session package the way the app does on a double-click: `verify`
 * first, and only a package that verifies is unpacked, under `<data root>/received/`, so
 * its report, notebook and artifacts can be read. A package that is refused or does not
 * match its manifest is left as it is and the problems say why. Unpacking again the same
 * package reuses its folder.
 */
export function receivePackage(file: string, dataDir: string): ReceivedPackage {
  const opened = openPackage(file, installationPublicKey(dataDir));
  const manifest = opened.verify.manifest;
  const report: ReceivedPackage = {
    file,
    verified: opened.files !== null && opened.verify.ok,
    title: manifest?.session.title ?? null,
    sessionId: manifest?.session.id ?? null,
    exportedAt: manifest?.createdAt ?? null,
    appVersion: manifest?.app.version ?? null,
    files: opened.verify.checked,
    signature: opened.verify.signature.summary,
    problems: opened.refused ? [opened.refused] : opened.verify.problems,
    folder: null,
  };
  if (!report.verified || !opened.files || !manifest) return report;

  const digest = createHash('sha256').update(manifest.digest).digest('hex');
  const folder = path.join(dataDir, 'received', folderName(report.sessionId, digest));
  if (!fs.existsSync(folder)) {
    // Written beside, then renamed: a folder that exists is complete.
    const partial = `${folder}.partial-${process.pid}`;
    fs.rmSync(partial, { recursive: true, force: true });
    for (const [name, bytes] of opened.files) {
      const target = path.resolve(partial, name);
      // verify refused unsafe names already; this keeps any slip inside the folder.
      if (!target.startsWith(partial + path.sep)) throw new Error(`${name}: refused: outside the package folder`);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, bytes);
    }
    fs.renameSync(partial, folder);
  }
  report.folder = folder;
  return report;
}
