import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { EgressOptions } from '../../security/egress';
import { guardedFetch } from '../../security/egress';
import type { EvidenceStore } from '../../records/evidenceStore';
import { writeWorkspaceFile } from '../../workspace/safeFs';
import { defineTool, reasonField, type Tool } from '../define';
import { configuredAllowance, type Endpoint } from './webSearch';
import { urlTarget } from './webTools';

/**
 * `fetch_open_access`: the open-access full text of a paper, as a PDF saved into the
 * session workspace (`papers/`), from arXiv (any e-print) or Europe PMC (articles of its
 * open-access subset, by PMCID). Asks for approval (it writes a file and fetches from the
 * network); the PDF becomes evidence by the hash of its bytes, and `read_pdf` reads it.
 */

export const ARXIV_PDF_VAR = 'OPENAI4S_ARXIV_PDF_BASE_URL';
export const EUROPEPMC_PDF_VAR = 'OPENAI4S_EUROPEPMC_PDF_BASE_URL';
const ARXIV_DEFAULT = 'https://arxiv.org';
const EUROPEPMC_DEFAULT = 'https://europepmc.org';
const MAX_PDF_BYTES = 60 * 1024 * 1024;

const ARXIV_ID = /^(\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?\/\d{7})(v\d+)?$/;
const PMCID = /^PMC\d{1,10}$/;

export interface OpenAccessOptions {
  env: (name: string) => string | undefined;
  evidence: () => EvidenceStore;
  egress?: EgressOptions;
}

function source(kind: 'arxiv' | 'europepmc', id: string, env: OpenAccessOptions['env']): { url: URL; endpoint: Endpoint; file: string } {
  const override = env(kind === 'arxiv' ? ARXIV_PDF_VAR : EUROPEPMC_PDF_VAR)?.trim();
  const base = new URL(override || (kind === 'arxiv' ? ARXIV_DEFAULT : EUROPEPMC_DEFAULT));
  const prefix = base.pathname.replace(/\/+$/, '');
  const url = new URL(base.origin);
  if (kind === 'arxiv') {
    url.pathname = `${prefix}/pdf/${id}`;
  } else {
    url.pathname = `${prefix}/backend/ptpmcrender.fcgi`;
    url.searchParams.set('accid', id);
    url.searchParams.set('blobtype', 'pdf');
  }
  // A configured address is allowed even on loopback (tests, mirrors).
  return { url, endpoint: { url: base, configured: Boolean(override) }, file: `papers/${kind}-${id.replace(/[^A-Za-z0-9.-]/g, '_')}.pdf` };
}

export function openAccessTool(options: OpenAccessOptions): Tool {
  return defineTool({
    name: 'fetch_open_access',
    description: 'Download the open-access PDF of an arXiv e-print or a Europe PMC article (PMCID) into the workspace (papers/); then read it with read_pdf.',
    input: z
      .object({
        source: z.enum(['arxiv', 'europepmc']),
        id: z.string().trim().min(3).max(40).describe('An arXiv id (2106.01345) or a PMCID (PMC7096066).'),
        reason: reasonField,
      })
      .strict(),
    sideEffect: 'network',
    defaultPolicy: 'ask',
    onDemand: true,
    hostMethods: ['literature.fetch_open_access'],
    resourceKeys: (a) => [`file:papers/${a.source}-${a.id}.pdf`],
    // The approval names the origin actually contacted: an override (a mirror, a test server) is not arxiv.org.
    target: (a) => {
      try {
        return urlTarget(source(a.source, a.id, options.env).url.href);
      } catch {
        // A malformed override: the call itself reports it.
        return `${a.source === 'arxiv' ? ARXIV_PDF_VAR : EUROPEPMC_PDF_VAR} (not a URL)`;
      }
    },
    async execute(a, ctx) {
      const id = a.source === 'europepmc' ? a.id.toUpperCase() : a.id;
      if (a.source === 'arxiv' && !ARXIV_ID.test(id)) throw new Error(`"${a.id}" is not an arXiv id (like 2106.01345 or hep-th/9901001).`);
      if (a.source === 'europepmc' && !PMCID.test(id)) throw new Error(`"${a.id}" is not a PMCID (like PMC7096066); Europe PMC serves PDFs of its open-access subset by PMCID (find it with science_search europepmc).`);
      let found;
      try {
        found = source(a.source, id, options.env);
      } catch {
        const name = a.source === 'arxiv' ? ARXIV_PDF_VAR : EUROPEPMC_PDF_VAR;
        throw new Error(`${name} is not a URL; fix or unset ${name}.`);
      }
      const { url, endpoint, file } = found;
      const allowAddress = await configuredAllowance(endpoint, options.egress, a.source === 'arxiv' ? ARXIV_PDF_VAR : EUROPEPMC_PDF_VAR);
      const res = await guardedFetch(url.href, { ...options.egress, signal: ctx.signal, maxBytes: MAX_PDF_BYTES, timeoutMs: 120_000, headers: { accept: 'application/pdf' }, ...(allowAddress ? { allowAddress } : {}) });
      if (res.status === 404) throw new Error(`${url.href} answered HTTP 404: ${a.source === 'arxiv' ? 'no such e-print' : 'this article has no open-access PDF in Europe PMC'}.`);
      if (res.status !== 200) throw new Error(`${url.href} answered HTTP ${res.status}; retry later.`);
      if (res.truncated) throw new Error(`the PDF at ${url.href} is larger than ${MAX_PDF_BYTES} bytes; download it yourself into the workspace.`);
      if (!res.body.subarray(0, 1024).includes('%PDF-')) throw new Error(`${url.href} did not answer a PDF (content type ${res.contentType || 'none'}); the article may not be open access.`);
      const saved = writeWorkspaceFile(ctx.workspace, file, res.body, { atomic: true });
      const sha256 = createHash('sha256').update(res.body).digest('hex');
      const evidence = options.evidence().record({
        sessionId: ctx.sessionId,
        kind: 'retrieval',
        key: ['pdf', sha256, 'download', res.url].join('|'),
        title: `${a.source === 'arxiv' ? 'arXiv' : 'Europe PMC'} ${id} (open-access PDF)`,
        snippet: `Downloaded ${saved.bytes} bytes from ${res.url} to ${saved.rel}.`,
        envelope: { database: 'pdf', media_type: 'application/pdf', path: saved.rel, url: res.url, request_url: url.href, sha256, byte_length: saved.bytes, source: a.source, record_id: id, retrieved_at: new Date().toISOString() },
      });
      return {
        text: `Saved ${saved.rel} (${saved.bytes} bytes, sha256 ${sha256}) from ${res.url}.\nEvidence id: ${evidence.id}\nRead it with read_pdf {"path": "${saved.rel}"}.`,
        output: { path: saved.rel, bytes: saved.bytes, sha256, url: res.url, evidenceId: evidence.id },
      };
    },
  });
}
