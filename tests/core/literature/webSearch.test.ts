import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../../src-main/core/capabilities/audit';
import { createToolRegistry } from '../../../src-main/core/capabilities/builtin';
import { createPermissionLayer, HostDispatcher } from '../../../src-main/core/capabilities/dispatcher';
import { MemoryRequestStore, MemoryRuleStore } from '../../../src-main/core/capabilities/permissions/memoryStores';
import { chooseBackend, parseDuckDuckGo } from '../../../src-main/core/capabilities/tools/webSearch';
import { recordSearchEvidence } from '../../../src-main/core/provenance/searchEvidence';
import { MemoryEvidenceStore } from '../../../src-main/core/records/evidenceStore';
import { loopback } from '../security/loopback';

const FIXTURES = path.join(__dirname, '../../fixtures/web-search');
const page = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

function dispatcherWith(env: NodeJS.ProcessEnv) {
  const evidence = new MemoryEvidenceStore();
  const registry = createToolRegistry({ env, onSearch: (s) => recordSearchEvidence(evidence, s).map((r) => r.id) });
  const { policy, approvals } = createPermissionLayer({ rules: new MemoryRuleStore(), requests: new MemoryRequestStore(), port: { ask: async () => 'allow_session' } });
  return { evidence, dispatcher: new HostDispatcher({ registry, policy, approvals, audit: new MemoryAudit() }) };
}
const ctx = { origin: 'tool' as const, sessionId: 's1', runId: null, workspace: '/x', signal: new AbortController().signal };

describe('DuckDuckGo HTML results, parsed with parse5', () => {
  it('keeps organic results in order (direct and /l/?uddg= links), drops the ad and repeats, decodes entities and drops highlights', () => {
    const { results, challenge } = parseDuckDuckGo(page('duckduckgo-html-crispr.html').toString('utf8'), new URL('https://html.duckduckgo.com/html/'));
    expect(challenge).toBe(false);
    expect(results.map((r) => r.url)).toEqual([
      'https://www.fda.gov/news-events/press-announcements/fda-approves-first-gene-therapies-treat-patients-sickle-cell-disease',
      'https://www.nejm.org/doi/full/10.1056/NEJMoa2031054',
      'https://en.wikipedia.org/wiki/CRISPR_gene_editing',
      'https://www.nature.com/articles/s41586-019-1711-4',
    ]);
    expect(results.map((r) => r.rank)).toEqual([1, 2, 3, 4]);
    expect(results[1]!.title).toBe('CRISPR-Cas9 Gene Editing for Sickle Cell Disease and β-Thalassemia');
    expect(results[2]!.snippet).toContain("It's based on a simplified version");
    expect(results[3]!.snippet).toBe('Prime editing & base editing expand the scope of CRISPR genome editing without requiring double-strand breaks.');
    expect(results.some((r) => /Order Today/.test(r.title))).toBe(false);
  });

  it('recognises the bot challenge page', () => {
    expect(parseDuckDuckGo(page('duckduckgo-html-challenge.html').toString('utf8'), new URL('https://html.duckduckgo.com/html/'))).toEqual({ results: [], challenge: true });
  });

  it('chooses SearXNG when configured, then a keyed Brave API, else DuckDuckGo with no configuration', () => {
    expect(chooseBackend({}).backend).toBe('duckduckgo');
    expect(chooseBackend({}).url.href).toBe('https://html.duckduckgo.com/html/');
    expect(chooseBackend({ OPENAI4S_BRAVE_API_KEY: 'BSAkey123456789' }).backend).toBe('brave');
    expect(chooseBackend({ OPENAI4S_BRAVE_API_KEY: 'BSAkey123456789', OPENAI4S_SEARXNG_URL: 'http://127.0.0.1:8888' }).backend).toBe('searxng');
  });
});

describe('web_search without configuration', () => {
  it('answers from DuckDuckGo (base URL overridden to loopback), names the backend and records each result as evidence', async () => {
    const ddg = await loopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' });
      res.end(page('duckduckgo-html-crispr.html'));
    });
    const { dispatcher, evidence } = dispatcherWith({ OPENAI4S_DUCKDUCKGO_URL: `${ddg.origin}/html/` });
    const r = await dispatcher.dispatch('web_search', { query: 'CRISPR Cas9 gene therapy', max_results: 3 }, ctx);
    expect(r.status).toBe('ok');
    expect(ddg.hits[0]!.url).toBe('/html/?q=CRISPR+Cas9+gene+therapy');
    expect(r.text).toMatch(/^<<<UNTRUSTED_DATA source="web_search\s+CRISPR Cas9 gene therapy\s*" id=/);
    expect(r.text).toContain('Backend: duckduckgo');
    const output = r.output as { backend: string; results: { url: string; evidenceId: string }[] };
    expect(output.backend).toBe('duckduckgo');
    expect(output.results).toHaveLength(3);
    const records = evidence.list('s1');
    expect(records.map((e) => e.id)).toEqual(output.results.map((x) => x.evidenceId));
    for (const x of output.results) expect(r.text).toContain(`Evidence id: ${x.evidenceId}`);
    expect(records[0]!.envelope).toMatchObject({
      database: 'web_search',
      backend: 'duckduckgo',
      rank: 1,
      url: 'https://www.fda.gov/news-events/press-announcements/fda-approves-first-gene-therapies-treat-patients-sickle-cell-disease',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      byte_length: page('duckduckgo-html-crispr.html').length,
    });
  });

  it('a bot challenge (HTTP 202) is a named error that says what to configure instead', async () => {
    const ddg = await loopback((_req, res) => {
      res.writeHead(202, { 'content-type': 'text/html; charset=UTF-8' });
      res.end(page('duckduckgo-html-challenge.html'));
    });
    const { dispatcher } = dispatcherWith({ OPENAI4S_DUCKDUCKGO_URL: `${ddg.origin}/html/` });
    const r = await dispatcher.dispatch('web_search', { query: 'insulin' }, ctx);
    expect(r.status).toBe('error');
    expect(r.text).toMatch(/DuckDuckGo is rate-limiting this computer .*HTTP 202.*OPENAI4S_SEARXNG_URL.*OPENAI4S_BRAVE_API_KEY/);
  });

  it('with a Brave key, asks the Brave API with the key in its header and names it', async () => {
    const brave = await loopback((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'search', web: { type: 'search', results: [{ title: 'Insulin - <strong>Wikipedia</strong>', url: 'https://en.wikipedia.org/wiki/Insulin', description: 'Insulin is a peptide hormone produced by beta cells.' }] } }));
      void req;
    });
    const { dispatcher } = dispatcherWith({ OPENAI4S_BRAVE_API_KEY: 'BSA-test-key-0123456789', OPENAI4S_BRAVE_BASE_URL: `${brave.origin}/res/v1/web/search` });
    const r = await dispatcher.dispatch('web_search', { query: 'insulin' }, ctx);
    expect(r.status).toBe('ok');
    expect(r.text).toContain('Backend: brave');
    expect(r.text).toContain('1. Insulin - Wikipedia\n   https://en.wikipedia.org/wiki/Insulin');
    expect(brave.hits[0]!.headers['x-subscription-token']).toBe('BSA-test-key-0123456789');
    expect(brave.hits[0]!.url).toBe('/res/v1/web/search?q=insulin&count=8');
  });
});
