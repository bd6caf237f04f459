import type { EvidenceRecord } from '../../../src-preload/contract/evidence';
import { idsOfDoi, idsOfUrl, normalizePmcid, normalizePmid, parseArxivId, type WorkIds } from '../science/workIdentity';
import type { BibEntry } from './bibEntry';

/**
 * What names the work of one bibliography entry, for merging the routes to one work
 * (bibMerge.ts). Identifiers: the DOI (case and prefix aside), the arXiv e-print (version
 * aside; arXiv's own DOI and its abstract and PDF links name it too), the PMID and PMCID.
 * Two records naming different values of one of these are different works, whatever else
 * they share. Links: the same PDF bytes (sha256) or the same address join records too, but
 * never two records whose identifiers differ.
 */

export const ID_KINDS = ['doi', 'arxiv', 'pmid', 'pmcid'] as const;
export type IdKind = (typeof ID_KINDS)[number];

export interface WorkKeys {
  ids: Partial<Record<IdKind, string>>;
  links: string[];
}

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** Fills the kinds `into` lacks from `from` (what a record declares outweighs what its links say). */
function fill(into: Partial<Record<IdKind, string>>, from: WorkIds): void {
  if (from.doi && !into.doi) into.doi = from.doi;
  if (from.arxiv && !into.arxiv) into.arxiv = from.arxiv.id;
  if (from.pmid && !into.pmid) into.pmid = from.pmid;
  if (from.pmcid && !into.pmcid) into.pmcid = from.pmcid;
}

/**
 * An address compared as a browser would: scheme and host in lower case, no fragment; the
 * query kept (it may name the page). A site's root names no one work (a reference may give
 * a journal's home page), so it links nothing.
 */
function addressKey(href: string): string | null {
  try {
    const url = new URL(href);
    url.hash = '';
    return url.pathname === '/' && !url.search ? null : `url:${url.href}`;
  } catch {
    return `url:${href}`;
  }
}

export function workKeysOf(record: EvidenceRecord, entry: BibEntry): WorkKeys {
  const env = record.envelope;
  const database = str(env.database);
  const recordId = str(env.record_id);
  const cit = env.citation && typeof env.citation === 'object' ? (env.citation as Record<string, unknown>) : {};
  const ids: Partial<Record<IdKind, string>> = {};
  // What the record says it is: its own id first (an arXiv record's id is the e-print, its DOI
  // may be the published version's), then the identifiers its citation gives.
  const arxiv = parseArxivId(entry.arxiv);
  if (arxiv) ids.arxiv = arxiv.id;
  const pmcidOfRecord = database === 'europepmc' && /^PMC:/.test(recordId) ? recordId.slice(4) : database === 'pdf' && str(env.source) === 'europepmc' ? recordId : '';
  fill(ids, { ...idsOfDoi(entry.doi), pmid: normalizePmid(entry.pmid), pmcid: normalizePmcid(pmcidOfRecord) || normalizePmcid(str(cit.pmcid)) });
  // Then what its addresses name (a PDF fetched from arxiv.org/pdf/<id>, a page at doi.org/...).
  const addresses = [entry.url, str(env.url), str(env.request_url), str(env.final_url)].filter(Boolean);
  for (const href of addresses) fill(ids, idsOfUrl(href));
  const links = [...new Set(addresses.map(addressKey).filter((k): k is string => k !== null))];
  // The same PDF bytes are one document however they came (a download, pages read, a PDF
  // web_fetch read). Not a page's: two soft-404 pages are the same bytes and no one work.
  const pdf = database === 'pdf' || (record.kind === 'page' && /^application\/pdf\b/i.test(str(env.content_type)));
  if (pdf && /^[0-9a-f]{64}$/.test(str(env.sha256))) links.push(`sha256:${str(env.sha256)}`);
  return { ids, links };
}
