import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { EvidenceRecord } from '../../../../src-preload/contract/evidence';
import type { EvidenceStore } from '../../records/evidenceStore';
import { authorsField, compactCitation, displayAuthor } from '../../science/citation';
import { readWorkspaceFile } from '../../workspace/safeFs';
import { defineTool, type Tool } from '../define';

/**
 * `read_pdf`: the text of a PDF in the session workspace (an uploaded paper, or one
 * `fetch_open_access` downloaded), by page range, through poppler's `pdftotext`. The bytes
 * are read once, race-free, from the workspace and hashed; the PDF becomes evidence by
 * that hash, and the text reaches the model marked as untrusted data (a paper can contain
 * instructions as easily as a web page).
 */

export const PDFTOTEXT_VAR = 'OPENAI4S_PDFTOTEXT';
const MAX_PDF_BYTES = 100 * 1024 * 1024;
const MAX_PAGES_PER_CALL = 50;
const TIMEOUT_MS = 60_000;

export interface PdfToolOptions {
  evidence: () => EvidenceStore;
  /** The pdftotext program (default: OPENAI4S_PDFTOTEXT, else `pdftotext` on PATH). */
  pdftotext?: () => string;
}

export const POPPLER_MISSING =
  'read_pdf needs poppler\'s pdftotext, which was not found. Install poppler (Debian/Ubuntu: sudo apt install poppler-utils; Fedora: sudo dnf install poppler-utils; macOS: brew install poppler), or set OPENAI4S_PDFTOTEXT to the program\'s full path.';

/** pdfinfo sits next to pdftotext (same poppler install). */
function pdfinfoOf(pdftotext: string): string {
  return path.join(path.dirname(pdftotext), path.basename(pdftotext).replace(/pdftotext/, 'pdfinfo'));
}

function run(program: string, args: string[], signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(program, args, { timeout: TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, signal, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EACCES') return reject(new Error(POPPLER_MISSING));
      const detail = String(stderr || error.message).replace(/\s+/g, ' ').trim().slice(0, 300);
      reject(new Error(`pdftotext could not read the file (${detail}); is it a PDF, and not encrypted?`));
    });
  });
}

/** Pages of the text pdftotext wrote: it ends every page with a form feed. */
export function splitPages(text: string): string[] {
  const pages = text.split('\f');
  if (pages.length > 1 && pages.at(-1)!.trim() === '') pages.pop();
  return pages;
}

/**
 * The document's Author line (pdfinfo) as names: "A; B", "A and B", "A, B" (when every part
 * is more than one word; else "Smith, Jane" is one name).
 */
export function pdfAuthors(author: string): ReturnType<typeof displayAuthor>[] {
  const text = author.replace(/\s+/g, ' ').trim();
  if (!text) return [];
  let parts = text.split(/\s*;\s*|\s+and\s+|\s*&\s*/i).filter(Boolean);
  if (parts.length === 1) {
    const byComma = text.split(/\s*,\s*/).filter(Boolean);
    if (byComma.length > 1 && byComma.every((p) => p.includes(' '))) parts = byComma;
  }
  return parts.map(displayAuthor);
}

export function recordPdfEvidence(
  store: EvidenceStore,
  input: { sessionId: string; rel: string; sha256: string; byteLength: number; first: number; last: number; pageCount: number | null; title: string; author?: string; text: string; source?: string | null },
): EvidenceRecord {
  const name = path.posix.basename(input.rel);
  // The document's own title and authors (its metadata), for a bibliography: the record's
  // title names the pages read, which is no title of the document.
  const citation = compactCitation({ title: input.title, ...authorsField(pdfAuthors(input.author ?? '')) });
  return store.record({
    sessionId: input.sessionId,
    kind: 'retrieval',
    key: ['pdf', input.sha256, input.first, input.last].join('|'),
    title: `${input.title || name}, pages ${input.first}-${input.last}`,
    snippet: input.text.replace(/\s+/g, ' ').trim(),
    envelope: {
      database: 'pdf',
      media_type: 'application/pdf',
      path: input.rel,
      sha256: input.sha256,
      byte_length: input.byteLength,
      pages: `${input.first}-${input.last}`,
      page_count: input.pageCount,
      ...(input.source ? { url: input.source } : {}),
      ...(citation ? { citation } : {}),
    },
  });
}

export function readPdfTool(options: PdfToolOptions): Tool {
  const program = () => options.pdftotext?.() || process.env[PDFTOTEXT_VAR]?.trim() || 'pdftotext';
  return defineTool({
    name: 'read_pdf',
    description: 'Read the text of a PDF in the workspace by page range (first_page..last_page, at most 50 pages a call). The PDF becomes citable evidence.',
    input: z
      .object({
        path: z.string().min(1).max(1000).describe('Workspace-relative path of the PDF.'),
        first_page: z.number().int().min(1).default(1),
        last_page: z.number().int().min(1).optional().describe('Default: first_page + 9.'),
      })
      .strict(),
    sideEffect: 'read',
    defaultPolicy: 'allow',
    onDemand: true,
    hostMethods: ['literature.read_pdf'],
    maxOutputBytes: 64 * 1024,
    resourceKeys: (a) => [`file:${a.path}`],
    target: (a) => a.path,
    async execute(a, ctx) {
      const last = a.last_page ?? a.first_page + 9;
      if (last < a.first_page) throw new Error(`last_page ${last} is before first_page ${a.first_page}.`);
      if (last - a.first_page + 1 > MAX_PAGES_PER_CALL) throw new Error(`at most ${MAX_PAGES_PER_CALL} pages per call; ask for pages ${a.first_page}-${a.first_page + MAX_PAGES_PER_CALL - 1} first.`);
      const { rel, bytes } = readWorkspaceFile(ctx.workspace, a.path, {
        maxBytes: MAX_PDF_BYTES,
        tooBig: (size, r) => new Error(`${r} is ${size} bytes, over the ${MAX_PDF_BYTES}-byte limit of read_pdf.`),
      });
      if (!bytes.subarray(0, 1024).includes('%PDF-')) throw new Error(`${rel} is not a PDF (no %PDF- header).`);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      // pdftotext reads a private copy of exactly the bytes hashed, never the workspace path itself.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-pdf-'));
      try {
        const file = path.join(dir, 'input.pdf');
        fs.writeFileSync(file, bytes, { mode: 0o600 });
        // pdfinfo (poppler, next to pdftotext) gives the page count and title; without it, no count.
        const info = await run(pdfinfoOf(program()), [file], ctx.signal).catch(() => '');
        const pageCount = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? NaN);
        const title = /^Title:\s+(.+)$/m.exec(info)?.[1]?.trim() ?? '';
        const author = /^Author:\s+(.+)$/m.exec(info)?.[1]?.trim() ?? '';
        const count = Number.isFinite(pageCount) ? pageCount : null;
        if (count !== null && a.first_page > count) throw new Error(`${rel} has ${count} page${count === 1 ? '' : 's'}; first_page ${a.first_page} is past the end.`);
        const text = await run(program(), ['-f', String(a.first_page), '-l', String(count !== null ? Math.min(last, count) : last), '-enc', 'UTF-8', '-layout', file, '-'], ctx.signal);
        const pages = splitPages(text);
        const lastRead = a.first_page + pages.length - 1;
        const evidence = recordPdfEvidence(options.evidence(), { sessionId: ctx.sessionId, rel, sha256, byteLength: bytes.length, first: a.first_page, last: lastRead, pageCount: count, title, author, text });
        const body = pages.map((p, i) => `--- page ${a.first_page + i} ---\n${p.replace(/\s+$/g, '')}`).join('\n');
        const head = [`PDF: ${rel}${title ? ` (${title})` : ''}`, `Pages ${a.first_page}-${lastRead}${count !== null ? ` of ${count}` : ''}`, `Evidence id: ${evidence.id}`, `sha256: ${sha256}`].join('\n');
        return {
          text: `${head}\n\n${body}`,
          untrustedSource: `read_pdf ${rel}`,
          output: { path: rel, evidenceId: evidence.id, sha256, pages: { first: a.first_page, last: lastRead, total: count }, title, chars: text.length },
        };
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  });
}
