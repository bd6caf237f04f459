import { AppError } from '../../../src-preload/contract/errors';
import type { ArchiveRepo } from '../ledger/archiveRepo';
import { BlobStore } from '../provenance/blobStore';

/** Where archived results live under the data root (the design's `tool-results/`). */
export const ARCHIVE_DIR = 'tool-results';

/** An archived result: enough to name it in a preview and find it again. */
export interface ArchivedRef {
  sha256: string;
  bytes: number;
  lines: number;
}

/** A page is chosen by bytes (`byteOffset`, `maxBytes`) or by lines (`startLine`, 1-based, `lineCount`). */
export type RecallRange = { byteOffset?: number; maxBytes?: number } | { startLine: number; lineCount?: number; maxBytes?: number };

/** One page of an archived result. Concatenating the pages of a walk gives the archived bytes exactly. */
export interface RecallPage {
  sha256: string;
  /** The page, decoded from exactly the bytes [byteStart, byteEnd). */
  text: string;
  byteStart: number;
  byteEnd: number;
  totalBytes: number;
  /** 1-based lines the page touches (a byte page may start or end mid-line). */
  lineStart: number;
  lineEnd: number;
  totalLines: number;
  /** Where the next page starts, or null at the end. */
  nextByteOffset: number | null;
}

export const DEFAULT_PAGE_BYTES = 8 * 1024;
export const MAX_PAGE_BYTES = 16 * 1024;

/** How many line feeds the bytes before `pos` hold. */
const newlinesBefore = (bytes: Buffer, pos: number): number => {
  let n = 0;
  for (let i = 0; i < pos; i++) if (bytes[i] === 0x0a) n++;
  return n;
};

/** Lines of a text: a final line without a line feed counts, an empty text has none. */
const countLines = (bytes: Buffer): number => (bytes.length ? newlinesBefore(bytes, bytes.length) + (bytes[bytes.length - 1] === 0x0a ? 0 : 1) : 0);

/** Steps back from `end` to the start of a UTF-8 character (continuation bytes are 10xxxxxx). */
function charBoundary(bytes: Buffer, end: number): number {
  let e = end;
  while (e > 0 && e < bytes.length && (bytes[e]! & 0xc0) === 0x80) e--;
  return e;
}

/**
 * The content-addressed archive of large tool and cell results: bytes stored once by
 * sha256 (a BlobStore under `<data root>/tool-results/`), and a ledger row per session
 * that saw them, so one session can never recall another's results by guessing a hash.
 */
export class ResultArchive {
  private readonly blobs: BlobStore;

  constructor(
    root: string,
    private readonly index: () => Pick<ArchiveRepo, 'recordResult' | 'findResult'>,
  ) {
    this.blobs = new BlobStore(root);
  }

  put(sessionId: string, runId: string | null, source: string, text: string): ArchivedRef {
    const bytes = Buffer.from(text, 'utf8');
    const { sha256 } = this.blobs.put(bytes);
    const lines = countLines(bytes);
    this.index().recordResult({ sessionId, sha256, runId, source, bytes: bytes.length, lines });
    return { sha256, bytes: bytes.length, lines };
  }

  /** The bytes of an archived result of this session, verified against their hash. */
  read(sessionId: string, sha256: string): Buffer {
    const hash = sha256.trim().toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(hash)) {
      throw new AppError('invalid_input', `"${sha256}" is not a sha256 (64 hex characters). Copy the full hash from the archived result's note.`);
    }
    if (!this.index().findResult(sessionId, hash)) {
      throw new AppError('not_found', `No archived result ${hash} in this session. Use a hash from an "Archived result" note of this session.`);
    }
    return this.blobs.read(hash);
  }

  /** One page of an archived result, by bytes or by lines; never splits a character. */
  recall(sessionId: string, sha256: string, range: RecallRange = {}): RecallPage {
    const bytes = this.read(sessionId, sha256);
    const maxBytes = Math.max(1, Math.min(range.maxBytes ?? DEFAULT_PAGE_BYTES, MAX_PAGE_BYTES));
    let start: number;
    let end: number;
    if ('startLine' in range) {
      start = lineOffset(bytes, range.startLine);
      const wanted = range.lineCount ?? Number.POSITIVE_INFINITY;
      end = start;
      let taken = 0;
      while (end < bytes.length && taken < wanted && end - start < maxBytes) {
        if (bytes[end] === 0x0a) taken++;
        end++;
      }
    } else {
      start = range.byteOffset ?? 0;
      if (!Number.isInteger(start) || start < 0 || start > bytes.length) {
        throw new AppError('invalid_input', `byte_offset ${start} is outside the result (0 to ${bytes.length}). Start at 0 or at the nextByteOffset of the previous page.`);
      }
      if (charBoundary(bytes, start) !== start) {
        throw new AppError('invalid_input', `byte_offset ${start} falls inside a character. Use 0 or the nextByteOffset of the previous page.`);
      }
      end = Math.min(bytes.length, start + maxBytes);
    }
    end = Math.min(end, start + maxBytes);
    // A page ends on a character boundary, so each page decodes exactly; the next starts there.
    const cut = charBoundary(bytes, end);
    if (cut > start) end = cut;
    else {
      // A page smaller than one character still returns that whole character.
      end = Math.min(bytes.length, start + 1);
      while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end++;
    }
    return {
      sha256: sha256.trim().toLowerCase(),
      text: bytes.subarray(start, end).toString('utf8'),
      byteStart: start,
      byteEnd: end,
      totalBytes: bytes.length,
      lineStart: newlinesBefore(bytes, start) + 1,
      lineEnd: end > start ? newlinesBefore(bytes, end - 1) + 1 : newlinesBefore(bytes, start) + 1,
      totalLines: countLines(bytes),
      nextByteOffset: end < bytes.length ? end : null,
    };
  }
}

/** The byte offset where 1-based line `line` starts. */
function lineOffset(bytes: Buffer, line: number): number {
  if (!Number.isInteger(line) || line < 1) throw new AppError('invalid_input', `start_line ${line} is not a line number; lines count from 1.`);
  if (line === 1) return 0;
  let seen = 1;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a && ++seen === line && i + 1 < bytes.length) return i + 1;
  }
  throw new AppError('invalid_input', `start_line ${line} is past the end: the result has ${countLines(bytes)} lines.`);
}
