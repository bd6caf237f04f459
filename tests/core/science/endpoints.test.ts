import { describe, expect, it } from 'vitest';
import { ENDPOINT_VARIABLES, joinUrl, parseBaseUrl, resolveHosts } from '../../../src-main/core/science/endpoints';
import { HostRateLimiter, defaultInterval } from '../../../src-main/core/science/rateLimit';
import { retryAfterMs } from '../../../src-main/core/shared/retryAfter';
import { parseXml, textOf } from '../../../src-main/core/science/xml';

describe('endpoints: fixed HTTPS hosts, overridable only by configuration', () => {
  it('defaults are HTTPS and each RCSB host has its own variable', () => {
    const pdb = resolveHosts('pdb', () => undefined);
    expect(Object.fromEntries(Object.entries(pdb).map(([k, v]) => [k, v.url.href]))).toEqual({
      search: 'https://search.rcsb.org/',
      data: 'https://data.rcsb.org/',
      files: 'https://files.rcsb.org/',
    });
    expect(ENDPOINT_VARIABLES).toEqual(
      expect.arrayContaining(['OPENAI4S_UNIPROT_BASE_URL', 'OPENAI4S_PDB_SEARCH_BASE_URL', 'OPENAI4S_PDB_DATA_BASE_URL', 'OPENAI4S_PDB_FILES_BASE_URL', 'OPENAI4S_PUBMED_BASE_URL', 'OPENAI4S_ENSEMBL_BASE_URL', 'OPENAI4S_CROSSREF_BASE_URL', 'OPENAI4S_ALPHAFOLD_BASE_URL']),
    );
    expect(ENDPOINT_VARIABLES).toHaveLength(13);
  });

  it('an override replaces one host, keeps a path prefix, and names the variable when wrong', () => {
    const hosts = resolveHosts('pdb', (n) => (n === 'OPENAI4S_PDB_FILES_BASE_URL' ? 'http://127.0.0.1:9/mirror/' : undefined));
    expect(hosts.files!.source).toBe('config');
    expect(hosts.search!.source).toBe('default');
    expect(joinUrl(hosts.files!.url, '/download/4INS.cif').href).toBe('http://127.0.0.1:9/mirror/download/4INS.cif');
    expect(() => parseBaseUrl('uniprot', 'OPENAI4S_UNIPROT_BASE_URL', 'http://mirror.example.org')).toThrow(/OPENAI4S_UNIPROT_BASE_URL=.*only https:\/\/.*Fix or unset OPENAI4S_UNIPROT_BASE_URL/);
    expect(() => parseBaseUrl('uniprot', 'OPENAI4S_UNIPROT_BASE_URL', 'https://u:p@mirror.example.org')).toThrow(/no credentials/);
    expect(() => parseBaseUrl('uniprot', 'OPENAI4S_UNIPROT_BASE_URL', 'not a url')).toThrow(/is not a URL/);
  });

  it('query values are encoded by the URL builder, never spliced into the host or path', () => {
    const url = joinUrl(new URL('https://rest.uniprot.org'), '/uniprotkb/search', { query: 'a&b=c#d/../x', size: 5 });
    expect(url.host).toBe('rest.uniprot.org');
    expect(url.pathname).toBe('/uniprotkb/search');
    expect(url.searchParams.get('query')).toBe('a&b=c#d/../x');
  });
});

describe('polite pacing and Retry-After', () => {
  it('spaces requests to one host, not across hosts', async () => {
    let now = 1000;
    const waits: number[] = [];
    const limiter = new HostRateLimiter(() => 350, () => now, async (ms) => {
      waits.push(ms);
      now += ms;
    });
    await limiter.acquire('eutils.ncbi.nlm.nih.gov');
    await limiter.acquire('eutils.ncbi.nlm.nih.gov');
    await limiter.acquire('rest.uniprot.org');
    expect(waits).toEqual([350]);
    expect(defaultInterval('eutils.ncbi.nlm.nih.gov')).toBeGreaterThanOrEqual(334);
    expect(defaultInterval('127.0.0.1')).toBe(0);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:05 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(5000);
    expect(retryAfterMs(null)).toBeNull();
  });
});

describe('xml reader', () => {
  it('reads entities, CDATA and namespaced names; refuses what is not XML', () => {
    const root = parseXml('<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "y">]><a b="1 &amp; 2"><n:c>x &lt; y</n:c><![CDATA[<raw>]]><!-- c --><d/></a>');
    expect(root.attrs.b).toBe('1 & 2');
    expect(textOf(root)).toBe('x < y<raw>');
    expect(() => parseXml('<a><b></a>')).toThrow(/does not match/);
    expect(() => parseXml('{"json": true}')).toThrow(/text outside the root element/);
    expect(() => parseXml('<a>&bogus;</a>')).toThrow(/unknown entity/);
    expect(() => parseXml('<a>')).toThrow(/unclosed element <a>/);
  });
});
