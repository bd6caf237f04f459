import fs from 'node:fs';
import path from 'node:path';
import { strToU8 } from 'fflate';
import { ARCHIVE_DIR } from '../archive/resultArchive';
import { BlobStore } from '../provenance/blobStore';
import type { Ledger } from '../ledger/ledger';

/**
 * What a long session adds to its export (issue 19): every compaction with its handoff
 * (`ledger/compactions.jsonl`; the full history is in the stream and action events beside
 * it), the index of archived results (`ledger/archived_results.jsonl`), and each archived
 * result's bytes (`archive/<sha256>.txt`), so a package shows both what the model read and
 * everything it did not. A result whose blob is missing is listed with `missing: true`.
 */
export function archiveFiles(ledger: Partial<Pick<Ledger, 'archive'>>, dataDir: string, sessionId: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  if (!ledger.archive) return files;
  const jsonl = (rows: readonly unknown[]) => strToU8(rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : ''));
  const compactions = ledger.archive.compactionsBySession(sessionId);
  if (compactions.length) files.set('ledger/compactions.jsonl', jsonl(compactions));
  const results = ledger.archive.resultsBySession(sessionId);
  if (!results.length) return files;
  const blobs = new BlobStore(path.join(dataDir, ARCHIVE_DIR));
  const index = results.map((r) => {
    const file = blobs.pathOf(r.sha256);
    if (!fs.existsSync(file)) return { ...r, missing: true };
    files.set(`archive/${r.sha256}.txt`, blobs.read(r.sha256));
    return { ...r, file: `archive/${r.sha256}.txt` };
  });
  files.set('ledger/archived_results.jsonl', jsonl(index));
  return files;
}
