import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { POPPLER_MISSING, readPdfTool } from '../../../src-main/core/capabilities/tools/pdfTools';
import { MemoryEvidenceStore } from '../../../src-main/core/records/evidenceStore';
import { makePdf } from './makePdf';

let workspace: string;
beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-pdf-ws-'));
  fs.mkdirSync(path.join(workspace, 'papers'));
});
afterEach(() => fs.rmSync(workspace, { recursive: true, force: true }));

const ctx = () => ({ sessionId: 's1', runId: 'r1', workspace, signal: new AbortController().signal, origin: 'tool' as const });
const PAGES = ['Abstract: insulin receptor signalling.', 'Methods: CRISPR knockout of INSR (see Fig. 1).', 'Results: glucose uptake fell by 40%.', 'Discussion: compensation by IGF1R.'];

describe('read_pdf', () => {
  it('reads a page range as untrusted text and records the PDF as evidence by the hash of its bytes', async () => {
    const pdf = makePdf(PAGES, 'INSR knockout');
    fs.writeFileSync(path.join(workspace, 'papers/insr.pdf'), pdf);
    const evidence = new MemoryEvidenceStore();
    const tool = readPdfTool({ evidence: () => evidence });
    const out = await tool.execute({ path: 'papers/insr.pdf', first_page: 2, last_page: 3 }, ctx());
    expect(out.untrustedSource).toBe('read_pdf papers/insr.pdf');
    expect(out.text).toContain('PDF: papers/insr.pdf (INSR knockout)');
    expect(out.text).toContain('Pages 2-3 of 4');
    expect(out.text).toMatch(/--- page 2 ---\n\s*Methods: CRISPR knockout of INSR \(see Fig\. 1\)\./);
    expect(out.text).toMatch(/--- page 3 ---\n\s*Results: glucose uptake fell by 40%\./);
    expect(out.text).not.toContain('Abstract');
    expect(out.text).not.toContain('Discussion');
    const [record] = evidence.list('s1');
    const sha = createHash('sha256').update(pdf).digest('hex');
    expect(record!.envelope).toMatchObject({ database: 'pdf', media_type: 'application/pdf', path: 'papers/insr.pdf', sha256: sha, byte_length: pdf.length, pages: '2-3', page_count: 4 });
    expect(out.text).toContain(`Evidence id: ${record!.id}`);
  });

  it('names a first page past the end, a file that is not a PDF, and a path outside the workspace', async () => {
    fs.writeFileSync(path.join(workspace, 'papers/short.pdf'), makePdf(PAGES.slice(0, 2)));
    fs.writeFileSync(path.join(workspace, 'notes.txt'), 'not a pdf');
    const tool = readPdfTool({ evidence: () => new MemoryEvidenceStore() });
    await expect(tool.execute({ path: 'papers/short.pdf', first_page: 5 }, ctx())).rejects.toThrow(/papers\/short\.pdf has 2 pages; first_page 5 is past the end/);
    await expect(tool.execute({ path: 'notes.txt', first_page: 1 }, ctx())).rejects.toThrow(/notes\.txt is not a PDF/);
    await expect(tool.execute({ path: '../etc/passwd', first_page: 1 }, ctx())).rejects.toThrow();
  });

  it('refuses a workspace symlink to a PDF outside the workspace, and a huge file before reading it', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-pdf-outside-'));
    try {
      fs.writeFileSync(path.join(outside, 'private.pdf'), makePdf(['private notes of this machine']));
      fs.symlinkSync(path.join(outside, 'private.pdf'), path.join(workspace, 'papers/link.pdf'));
      fs.symlinkSync(outside, path.join(workspace, 'outside'));
      const evidence = new MemoryEvidenceStore();
      const tool = readPdfTool({ evidence: () => evidence });
      await expect(tool.execute({ path: 'papers/link.pdf', first_page: 1 }, ctx())).rejects.toThrow(/link/);
      await expect(tool.execute({ path: 'outside/private.pdf', first_page: 1 }, ctx())).rejects.toThrow(/link/);
      // A sparse 300 MB file: refused by its size, never read into memory.
      const huge = path.join(workspace, 'papers/huge.pdf');
      fs.writeFileSync(huge, '%PDF-1.4\n');
      fs.truncateSync(huge, 300 * 1024 * 1024);
      await expect(tool.execute({ path: 'papers/huge.pdf', first_page: 1 }, ctx())).rejects.toThrow(/over the \d+-byte limit of read_pdf/);
      expect(evidence.list('s1')).toEqual([]);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('without poppler, says how to install it', async () => {
    fs.writeFileSync(path.join(workspace, 'a.pdf'), makePdf(PAGES));
    const tool = readPdfTool({ evidence: () => new MemoryEvidenceStore(), pdftotext: () => path.join(workspace, 'no-such-dir', 'pdftotext') });
    await expect(tool.execute({ path: 'a.pdf', first_page: 1 }, ctx())).rejects.toThrow(POPPLER_MISSING);
    expect(POPPLER_MISSING).toMatch(/apt install poppler-utils.*brew install poppler.*OPENAI4S_PDFTOTEXT/);
  });
});
