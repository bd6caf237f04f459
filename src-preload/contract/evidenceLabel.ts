import type { EvidenceRecord } from './evidence';

/**
 * The human label of an evidence record, for citation chips and exported sources: the
 * database and accession of a retrieval ("UniProt P01308"), the first author, year and
 * journal of a paper ("Smith 2023, Nature"), the site of a web page. The raw `ev_` id
 * stays available on hover. Pure and dependency-free (the renderer imports it).
 */

const DATABASE_LABELS: Record<string, string> = {
  uniprot: 'UniProt',
  pdb: 'PDB',
  pubchem: 'PubChem',
  chembl: 'ChEMBL',
  arxiv: 'arXiv',
  openalex: 'OpenAlex',
  pubmed: 'PMID',
  europepmc: 'Europe PMC',
  ensembl: 'Ensembl',
  crossref: 'DOI',
  alphafold: 'AlphaFold',
};

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** "Jane Q. Smith" -> "Smith"; "Smith, Jane" -> "Smith"; a single token stays. */
export function surname(author: string): string {
  const a = author.trim();
  if (a.includes(',')) return a.split(',')[0]!.trim();
  const parts = a.split(/\s+/).filter(Boolean);
  return parts.at(-1) ?? a;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    // Not a URL: no site to name.
    return '';
  }
}

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function evidenceLabel(record: Pick<EvidenceRecord, 'kind' | 'title' | 'envelope'>): string {
  const env = record.envelope ?? {};
  const authors = Array.isArray(env.authors) ? env.authors.map(str).filter(Boolean) : [];
  const year = str(env.year);
  const journal = str(env.journal);
  if (authors.length && year) return `${surname(authors[0]!)} ${year}${journal ? `, ${journal}` : ''}`;
  const database = str(env.database);
  const recordId = str(env.record_id);
  if (database && recordId && DATABASE_LABELS[database]) return `${DATABASE_LABELS[database]} ${recordId}`;
  if (year && journal) return `${journal} ${year}`;
  if (record.kind === 'page') {
    const site = hostOf(str(env.final_url) || str(env.request_url));
    return site ? `${site}${record.title ? `: ${shorten(record.title, 40)}` : ''}` : shorten(record.title, 60);
  }
  return shorten(record.title || 'evidence', 60);
}
