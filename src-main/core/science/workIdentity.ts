/**
 * The identifiers that name one scholarly work, normalised so that two routes to the same
 * work compare equal: a DOI however it is written (case, `doi:`, `https://doi.org/`, percent
 * escapes in a link), an arXiv e-print without its version (v1 and v2 are one e-print), a
 * PMID, a PMCID, and the links of arXiv, doi.org, PubMed, PMC and Europe PMC that name one of
 * these. The bibliography export (export/workKeys.ts) merges the evidence of one work by them.
 */

export interface ArxivId {
  /** The e-print without version: "1605.08386", or "hep-th/9901001" (archive and number). */
  id: string;
  /** "v2", or "" when none was named (arXiv then serves the latest). */
  version: string;
}

/** What one link or record names (each normalised; absent when it names none). */
export interface WorkIds {
  doi?: string;
  arxiv?: ArxivId;
  pmid?: string;
  pmcid?: string;
}

const DOI_BODY = /^10\.\d{4,9}\/\S+$/;
const DOI_TEXT_PREFIX = /^(?:doi:\s*|urn:doi:|info:doi\/)/i;
const DOI_LINK_PREFIX = /^https?:\/\/(?:dx\.|www\.)?doi\.org\//i;
/** arXiv's own DataCite DOI of an e-print: the e-print, not a published version. */
const ARXIV_DOI = /^10\.48550\/arxiv\.(.+)$/;

const NEW_ARXIV = /^(\d{4}\.\d{4,5})(v\d+)?$/i;
// Before April 2007: archive, optional subject class ("math.GT"), seven digits. The number is
// unique within the archive, so "math.GT/0309136" and "math/0309136" are one e-print.
const OLD_ARXIV = /^([a-z][a-z-]*)(?:\.[a-z-]{2,})?\/(\d{7})(v\d+)?$/i;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** DOIs are case-insensitive in ASCII only: other letters are kept as written. */
const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/**
 * "10.1158/0008-5472.CAN-09-4563", "doi:10.1158/...", "https://doi.org/10.1158%2F..." ->
 * "10.1158/0008-5472.can-09-4563"; "" when the text is no DOI. In a link the DOI ends at
 * `?` or `#` (a DOI holding those is percent-escaped in a link).
 */
export function normalizeDoi(text: string): string {
  return asciiLower(bareDoi(text));
}

/**
 * The DOI as written, without what was around it ("https://doi.org/10.1056%2FNEJMoa2031054"
 * -> "10.1056/NEJMoa2031054"): what a bibliography's doi field holds. "" when no DOI.
 */
export function bareDoi(text: string): string {
  let t = text.trim();
  const link = DOI_LINK_PREFIX.exec(t);
  if (link) t = decoded(t.slice(link[0].length).split(/[?#]/)[0]!);
  else t = t.replace(DOI_TEXT_PREFIX, '');
  return DOI_BODY.test(t) ? t : '';
}

/** "arXiv:1605.08386v2", "hep-th/9901001", "math.GT/0309136v1" -> the e-print and its version; null when no arXiv id. */
export function parseArxivId(text: string): ArxivId | null {
  const t = text.trim().replace(/^arxiv:\s*/i, '');
  const n = NEW_ARXIV.exec(t);
  // Four-digit numbers from 0704 to 1412, five from 1501 on: "1605.0838" is a cut id, no e-print.
  if (n) return n[1]!.length === (n[1]!.slice(0, 4) < '1501' ? 9 : 10) ? { id: n[1]!, version: (n[2] ?? '').toLowerCase() } : null;
  const o = OLD_ARXIV.exec(t);
  if (o) return { id: `${o[1]!.toLowerCase()}/${o[2]!}`, version: (o[3] ?? '').toLowerCase() };
  return null;
}

/** The e-print a DOI names when it is arXiv's own (10.48550/arXiv.1605.08386), else null. */
export function arxivOfDoi(doi: string): ArxivId | null {
  const m = ARXIV_DOI.exec(normalizeDoi(doi));
  return m ? parseArxivId(m[1]!) : null;
}

export function normalizePmid(text: string): string {
  const t = text.trim().replace(/^pmid:\s*/i, '');
  return /^\d{1,9}$/.test(t) ? String(Number(t)) : '';
}

export function normalizePmcid(text: string): string {
  const m = /^(?:pmcid:\s*)?PMC(\d{1,10})$/i.exec(text.trim());
  return m ? `PMC${Number(m[1])}` : '';
}

/** A DOI's identifiers: arXiv's own DOI names the e-print, any other DOI itself. */
export function idsOfDoi(text: string): WorkIds {
  const doi = normalizeDoi(text);
  if (!doi) return {};
  const arxiv = arxivOfDoi(doi);
  return arxiv ? { arxiv } : { doi };
}

/** The path of an arXiv page or file: "/abs/<id>", "/pdf/<id>(.pdf)", "/ps/<id>", "/format/<id>". */
function arxivOfPath(pathname: string): ArxivId | null {
  const m = /^\/(?:abs|pdf|ps|format)\/(.+?)(?:\.pdf)?\/?$/i.exec(decoded(pathname));
  return m ? parseArxivId(m[1]!) : null;
}

/**
 * The work a link names, when it is a link of a service whose address is the identifier:
 * doi.org, arxiv.org (an abstract page or a PDF, with any query string), PubMed, PMC and
 * Europe PMC. Any other link names no work (a publisher page declares its DOI in its tags).
 */
export function idsOfUrl(href: string): WorkIds {
  let url: URL;
  try {
    url = new URL(href.trim());
  } catch {
    return {};
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return {};
  const host = url.hostname.replace(/^www\./, '');
  const path = url.pathname;
  if (host === 'doi.org' || host === 'dx.doi.org') return idsOfDoi(`https://doi.org${path}`);
  if (host === 'arxiv.org' || host === 'export.arxiv.org') {
    const arxiv = arxivOfPath(path);
    return arxiv ? { arxiv } : {};
  }
  const pmid = (s: string | undefined): WorkIds => (s && normalizePmid(s) ? { pmid: normalizePmid(s) } : {});
  const pmcid = (s: string | undefined): WorkIds => {
    const id = s ? normalizePmcid(/^pmc/i.test(s) ? s : `PMC${s}`) : '';
    return id ? { pmcid: id } : {};
  };
  if (host === 'pubmed.ncbi.nlm.nih.gov') return pmid(/^\/(\d{1,9})\/?$/.exec(path)?.[1]);
  if (host === 'ncbi.nlm.nih.gov') {
    const pm = /^\/pubmed\/(\d{1,9})\/?$/.exec(path);
    return pm ? pmid(pm[1]) : pmcid(/^\/pmc\/articles\/((?:PMC)?\d{1,10})\/?/i.exec(path)?.[1]);
  }
  if (host === 'pmc.ncbi.nlm.nih.gov') return pmcid(/^\/articles\/((?:PMC)?\d{1,10})\/?/i.exec(path)?.[1]);
  if (host === 'europepmc.org') {
    const med = /^\/(?:article|abstract)\/MED\/(\d{1,9})\/?$/i.exec(path);
    if (med) return pmid(med[1]);
    const pmc = /^\/(?:(?:article|abstract)\/PMC|articles)\/((?:PMC)?\d{1,10})\/?$/i.exec(path);
    if (pmc) return pmcid(pmc[1]);
    if (/^\/backend\/ptpmcrender\.fcgi$/i.test(path)) return pmcid(url.searchParams.get('accid') ?? undefined);
  }
  return {};
}
