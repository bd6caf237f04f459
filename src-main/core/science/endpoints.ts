import type { ScienceDatabase } from '../../../src-preload/contract/evidence';
import { ConnectorError } from './errors';

/** A host a connector talks to: its fixed HTTPS default and the only variable that overrides it. */
export interface HostSpec {
  key: string;
  envVar: string;
  defaultUrl: string;
}

/**
 * Every host of every database. The model chooses the database, never the host; only
 * configuration (these variables, from the environment or the data root's .env) can
 * point a host elsewhere, e.g. at a mirror or a loopback test server.
 */
export const HOSTS: Record<ScienceDatabase, HostSpec[]> = {
  uniprot: [{ key: 'rest', envVar: 'OPENAI4S_UNIPROT_BASE_URL', defaultUrl: 'https://rest.uniprot.org' }],
  pdb: [
    { key: 'search', envVar: 'OPENAI4S_PDB_SEARCH_BASE_URL', defaultUrl: 'https://search.rcsb.org' },
    { key: 'data', envVar: 'OPENAI4S_PDB_DATA_BASE_URL', defaultUrl: 'https://data.rcsb.org' },
    { key: 'files', envVar: 'OPENAI4S_PDB_FILES_BASE_URL', defaultUrl: 'https://files.rcsb.org' },
  ],
  pubchem: [{ key: 'rest', envVar: 'OPENAI4S_PUBCHEM_BASE_URL', defaultUrl: 'https://pubchem.ncbi.nlm.nih.gov' }],
  chembl: [{ key: 'rest', envVar: 'OPENAI4S_CHEMBL_BASE_URL', defaultUrl: 'https://www.ebi.ac.uk' }],
  arxiv: [{ key: 'rest', envVar: 'OPENAI4S_ARXIV_BASE_URL', defaultUrl: 'https://export.arxiv.org' }],
  openalex: [{ key: 'rest', envVar: 'OPENAI4S_OPENALEX_BASE_URL', defaultUrl: 'https://api.openalex.org' }],
  pubmed: [{ key: 'rest', envVar: 'OPENAI4S_PUBMED_BASE_URL', defaultUrl: 'https://eutils.ncbi.nlm.nih.gov' }],
  europepmc: [{ key: 'rest', envVar: 'OPENAI4S_EUROPEPMC_BASE_URL', defaultUrl: 'https://www.ebi.ac.uk' }],
  ensembl: [{ key: 'rest', envVar: 'OPENAI4S_ENSEMBL_BASE_URL', defaultUrl: 'https://rest.ensembl.org' }],
  crossref: [{ key: 'rest', envVar: 'OPENAI4S_CROSSREF_BASE_URL', defaultUrl: 'https://api.crossref.org' }],
  alphafold: [{ key: 'rest', envVar: 'OPENAI4S_ALPHAFOLD_BASE_URL', defaultUrl: 'https://alphafold.ebi.ac.uk' }],
};

/** All override variables, for the README and `--help`. */
export const ENDPOINT_VARIABLES: string[] = Object.values(HOSTS).flatMap((hosts) => hosts.map((h) => h.envVar));

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Parses one override. HTTPS anywhere; plain HTTP only on loopback (test servers), so a
 * typo cannot silently send queries in clear over the network. No credentials, query or
 * fragment: the connector owns paths and parameters.
 */
export function parseBaseUrl(database: ScienceDatabase, envVar: string, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConnectorError(database, 'not_configured', `${envVar}=${raw} is not a URL; set it like https://mirror.example.org or unset it.`);
  }
  const fix = `Fix or unset ${envVar}.`;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw new ConnectorError(database, 'not_configured', `${envVar}=${raw}: only https:// URLs (or http:// on 127.0.0.1/localhost) are allowed. ${fix}`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new ConnectorError(database, 'not_configured', `${envVar}=${raw}: no credentials, query or fragment in a base URL. ${fix}`);
  }
  return url;
}

export type EnvLookup = (name: string) => string | undefined;

/** The resolved base URL of each host of a database, with where it came from. */
export interface ResolvedHost {
  url: URL;
  source: 'default' | 'config';
  envVar: string;
}

export function resolveHosts(database: ScienceDatabase, lookup: EnvLookup): Record<string, ResolvedHost> {
  const out: Record<string, ResolvedHost> = {};
  for (const host of HOSTS[database]) {
    const raw = lookup(host.envVar)?.trim();
    out[host.key] = raw
      ? { url: parseBaseUrl(database, host.envVar, raw), source: 'config', envVar: host.envVar }
      : { url: new URL(host.defaultUrl), source: 'default', envVar: host.envVar };
  }
  return out;
}

/** Joins a base URL (which may carry a path prefix) with a fixed connector path and query. */
export function joinUrl(base: URL, path: string, query?: Record<string, string | number | undefined>): URL {
  const prefix = base.pathname.replace(/\/+$/, '');
  const url = new URL(base.origin);
  url.pathname = `${prefix}${path.startsWith('/') ? path : `/${path}`}`;
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  return url;
}
