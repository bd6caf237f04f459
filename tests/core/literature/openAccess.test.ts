import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../../src-main/core/capabilities/audit';
import { createPermissionLayer, HostDispatcher } from '../../../src-main/core/capabilities/dispatcher';
import { MemoryRequestStore, MemoryRuleStore } from '../../../src-main/core/capabilities/permissions/memoryStores';
import { ToolRegistry } from '../../../src-main/core/capabilities/registry';
import { openAccessTool } from '../../../src-main/core/capabilities/tools/openAccessTool';
import { readPdfTool } from '../../../src-main/core/capabilities/tools/pdfTools';
import { MemoryEvidenceStore } from '../../../src-main/core/records/evidenceStore';
import { loopback } from '../security/loopback';
import { makePdf } from './makePdf';

let workspace: string;
beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-oa-'));
});
afterEach(() => fs.rmSync(workspace, { recursive: true, force: true }));

function setup(env: Record<string, string>, answer: 'allow_once' | 'deny') {
  const evidence = new MemoryEvidenceStore();
  const registry = new ToolRegistry().register(openAccessTool({ env: (n) => env[n], evidence: () => evidence })).register(readPdfTool({ evidence: () => evidence }));
  const asked: string[] = [];
  const { policy, approvals } = createPermissionLayer({
    rules: new MemoryRuleStore(),
    requests: new MemoryRequestStore(),
    port: {
      ask: async (q) => {
        asked.push(`${q.tool} ${q.target}`);
        return answer;
      },
    },
  });
  const dispatcher = new HostDispatcher({ registry, policy, approvals, audit: new MemoryAudit() });
  const ctx = { origin: 'tool' as const, sessionId: 's1', runId: null, workspace, signal: new AbortController().signal };
  return { evidence, dispatcher, ctx, asked };
}

describe('fetch_open_access', () => {
  it('asks first, then saves the arXiv PDF under papers/, records it by hash, and read_pdf reads it', async () => {
    const pdf = makePdf(['Attention is all you need.', 'The Transformer.']);
    const server = await loopback((req, res) => {
      if (req.url === '/pdf/1706.03762') {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        res.end(pdf);
      } else res.writeHead(404).end();
    });
    const { dispatcher, ctx, evidence, asked } = setup({ OPENAI4S_ARXIV_PDF_BASE_URL: server.origin }, 'allow_once');
    const r = await dispatcher.dispatch('fetch_open_access', { source: 'arxiv', id: '1706.03762', reason: 'read the paper' }, ctx);
    expect(r.status).toBe('ok');
    // The approval names the host actually contacted (the override), not arxiv.org.
    expect(asked).toEqual([`fetch_open_access ${server.origin}`]);
    expect(fs.readFileSync(path.join(workspace, 'papers/arxiv-1706.03762.pdf')).equals(pdf)).toBe(true);
    const [record] = evidence.list('s1');
    expect(record!.envelope).toMatchObject({ database: 'pdf', media_type: 'application/pdf', path: 'papers/arxiv-1706.03762.pdf', sha256: createHash('sha256').update(pdf).digest('hex'), record_id: '1706.03762' });
    const read = await dispatcher.dispatch('read_pdf', { path: 'papers/arxiv-1706.03762.pdf' }, ctx);
    expect(read.text).toContain('Attention is all you need.');
  });

  it('asks Europe PMC for the PDF rendering of a PMCID, and names an article without one', async () => {
    const server = await loopback((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/backend/ptpmcrender.fcgi' && url.searchParams.get('accid') === 'PMC7096066' && url.searchParams.get('blobtype') === 'pdf') {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        res.end(makePdf(['Open access.']));
      } else {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><body>No PDF available</body></html>');
      }
    });
    const { dispatcher, ctx } = setup({ OPENAI4S_EUROPEPMC_PDF_BASE_URL: server.origin }, 'allow_once');
    const ok = await dispatcher.dispatch('fetch_open_access', { source: 'europepmc', id: 'pmc7096066' }, ctx);
    expect(ok.text).toMatch(/^Saved papers\/europepmc-PMC7096066\.pdf/);
    const none = await dispatcher.dispatch('fetch_open_access', { source: 'europepmc', id: 'PMC1' }, ctx);
    expect(none.status).toBe('error');
    expect(none.text).toMatch(/did not answer a PDF \(content type text\/html\); the article may not be open access/);
    const bad = await dispatcher.dispatch('fetch_open_access', { source: 'europepmc', id: '32015507' }, ctx);
    expect(bad.text).toMatch(/is not a PMCID/);
  });

  it('does nothing when the user denies it', async () => {
    const server = await loopback((_req, res) => res.writeHead(500).end());
    const { dispatcher, ctx } = setup({ OPENAI4S_ARXIV_PDF_BASE_URL: server.origin }, 'deny');
    const r = await dispatcher.dispatch('fetch_open_access', { source: 'arxiv', id: '1706.03762' }, ctx);
    expect(r.status).toBe('denied');
    expect(server.hits).toEqual([]);
    expect(fs.existsSync(path.join(workspace, 'papers'))).toBe(false);
  });

  it('names the default hosts when nothing is overridden, and refuses a malformed override', async () => {
    const { dispatcher, ctx, asked } = setup({}, 'deny');
    await dispatcher.dispatch('fetch_open_access', { source: 'arxiv', id: '1706.03762' }, ctx);
    await dispatcher.dispatch('fetch_open_access', { source: 'europepmc', id: 'PMC7096066' }, ctx);
    expect(asked).toEqual(['fetch_open_access https://arxiv.org', 'fetch_open_access https://europepmc.org']);
    const broken = setup({ OPENAI4S_ARXIV_PDF_BASE_URL: 'not a url' }, 'allow_once');
    const r = await broken.dispatcher.dispatch('fetch_open_access', { source: 'arxiv', id: '1706.03762' }, broken.ctx);
    expect(broken.asked).toEqual(['fetch_open_access OPENAI4S_ARXIV_PDF_BASE_URL (not a URL)']);
    expect(r.text).toMatch(/OPENAI4S_ARXIV_PDF_BASE_URL is not a URL; fix or unset OPENAI4S_ARXIV_PDF_BASE_URL\./);
  });

  it('does not follow a redirect from the configured host to another loopback port or a metadata address', async () => {
    const inner = await loopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(makePdf(['internal only']));
    });
    const server = await loopback((req, res) => {
      res.writeHead(302, { location: req.url === '/pdf/1706.03762' ? `${inner.origin}/secret.pdf` : 'http://169.254.169.254/latest/meta-data/' });
      res.end();
    });
    const { dispatcher, ctx } = setup({ OPENAI4S_ARXIV_PDF_BASE_URL: server.origin }, 'allow_once');
    const r = await dispatcher.dispatch('fetch_open_access', { source: 'arxiv', id: '1706.03762' }, ctx);
    // The egress guard refuses the hop: only the configured address and port are let through.
    expect(r.status).toBe('refused');
    expect(inner.hits).toEqual([]);
    const meta = await dispatcher.dispatch('fetch_open_access', { source: 'arxiv', id: '1706.03763' }, ctx);
    expect(meta.status).toBe('refused');
    expect(meta.text).toMatch(/169\.254\.169\.254/);
    expect(fs.existsSync(path.join(workspace, 'papers'))).toBe(false);
  });
});
