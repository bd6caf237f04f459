/**
 * The last line of defence before text leaves in an export: the ledger is scrubbed as it
 * is written, but rows written before the scrubber existed (or by a path that missed it)
 * must not carry a key into a zip that is then shared. Files the export generates from
 * the ledger get the full scrub (configured keys and key-shaped strings); contributed
 * data files (artifacts, evidence bytes) lose only configured key values, because a
 * key-shaped string in a data file may be the data.
 */
import { scrubKnownSecrets, scrubSecrets } from '../security/secrets';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

function asText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return utf8.decode(bytes);
  } catch {
    // Not UTF-8: binary, which the caller copies as it is.
    return null;
  }
}

/** Scrubs the text files of `files` in place; `generated` are the paths built from the ledger. */
export function scrubExportFiles(files: Map<string, Uint8Array>, generated: ReadonlySet<string>): void {
  for (const [name, bytes] of files) {
    const text = asText(bytes);
    if (text === null) continue;
    const clean = generated.has(name) ? scrubSecrets(text) : scrubKnownSecrets(text);
    if (clean !== text) files.set(name, encoder.encode(clean));
  }
}
