import type { ScienceRecord } from '../../../../src-preload/contract/evidence';
import { requireId, asArr, asNum, asObj, asStr, compact, type Connector, type ConnectorContext } from '../connector';
import { ConnectorError } from '../errors';

const ACCESSION = /^([OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9]([A-Z][A-Z0-9]{2}[0-9]){1,2})$/;
const FIELDS = 'accession,id,protein_name,gene_names,organism_name,organism_id,length,reviewed,cc_function,xref_pdb';

function entryUrl(acc: string): string {
  return `https://www.uniprot.org/uniprotkb/${acc}/entry`;
}

/** One UniProtKB JSON entry (search result or full entry) to the common envelope. */
export function normalizeUniprotEntry(raw: unknown, index = 0): ScienceRecord {
  const e = asObj(raw);
  const acc = requireId('uniprot', 'primaryAccession', index, e.primaryAccession);
  const desc = asObj(e.proteinDescription);
  const name =
    asStr(asObj(asObj(desc.recommendedName).fullName).value) ||
    asStr(asObj(asObj(asArr(desc.submissionNames)[0]).fullName).value) ||
    acc;
  const genes = asArr(e.genes).map((g) => asStr(asObj(asObj(g).geneName).value)).filter(Boolean);
  const organism = asObj(e.organism);
  const fn = asArr(e.comments).find((c) => asObj(c).commentType === 'FUNCTION');
  const fnText = asStr(asObj(asArr(asObj(fn).texts)[0]).value);
  const pdb = asArr(e.uniProtKBCrossReferences)
    .map(asObj)
    .filter((x) => x.database === 'PDB')
    .map((x) => asStr(x.id));
  return {
    id: acc,
    title: name,
    url: entryUrl(acc),
    type: 'protein',
    attributes: compact({
      uniprot_id: asStr(e.uniProtkbId),
      reviewed: asStr(e.entryType) ? asStr(e.entryType).includes('reviewed') && !asStr(e.entryType).includes('unreviewed') : undefined,
      genes,
      organism: asStr(organism.scientificName),
      taxon_id: asNum(organism.taxonId),
      length: asNum(asObj(e.sequence).length),
      sequence: asStr(asObj(e.sequence).value) || undefined,
      function: fnText.length > 500 ? `${fnText.slice(0, 499)}…` : fnText,
      pdb_ids: pdb.slice(0, 25),
      pdb_id_count: pdb.length,
    }),
  };
}

/** FASTA text to records (header `>sp|P01308|INS_HUMAN Insulin OS=Homo sapiens OX=9606 GN=INS PE=1 SV=1`). */
export function parseFasta(text: string): ScienceRecord[] {
  if (!text.trimStart().startsWith('>')) throw new Error('the answer is not FASTA (no ">" header)');
  return text
    .split(/^>/m)
    .filter((b) => b.trim())
    .map((block, index) => {
      const [header = '', ...lines] = block.split(/\r?\n/);
      const sequence = lines.join('').replace(/\s+/g, '');
      const m = /^(sp|tr)\|([^|]+)\|(\S+)\s+(.*?)(?:\s+OS=(.*?))?(?:\s+OX=(\d+))?(?:\s+GN=(\S+))?(?:\s+PE=(\d))?(?:\s+SV=(\d+))?$/.exec(header.trim());
      const db = /^(?:sp|tr)\|([^|]*)\|/.exec(header.trim());
      const acc = requireId('uniprot', 'FASTA header accession', index, db ? db[1] : header.trim().split(/\s/)[0]);
      return {
        id: acc,
        title: m?.[4] ?? header.trim(),
        url: entryUrl(acc),
        type: 'sequence',
        attributes: compact({
          header: header.trim(),
          uniprot_id: m?.[3],
          reviewed: m ? m[1] === 'sp' : undefined,
          organism: m?.[5],
          taxon_id: m?.[6] ? Number(m[6]) : undefined,
          gene: m?.[7],
          length: sequence.length,
          sequence,
        }),
      };
    });
}

function checkAccession(query: string): string {
  const acc = query.trim().toUpperCase();
  if (!ACCESSION.test(acc)) {
    throw new ConnectorError('uniprot', 'invalid_request', `"${query}" is not a UniProtKB accession (like P01308); use operation "search" to find one.`);
  }
  return acc;
}

/** UniProt's cursor comes back in the Link header of the search answer. */
function nextCursor(link: string | undefined): string | null {
  const m = link ? /<([^>]+)>;\s*rel="next"/.exec(link) : null;
  if (!m) return null;
  try {
    return new URL(m[1]!).searchParams.get('cursor');
  } catch {
    // An unreadable Link header: no next page rather than a failed search.
    return null;
  }
}

export const uniprot: Connector = {
  database: 'uniprot',
  label: 'UniProt',
  description: 'UniProtKB proteins: search (query syntax, e.g. "BRAF AND organism_id:9606"), an entry by accession, or its FASTA sequence.',
  normalizerVersion: 'uniprot/1',
  operations: [
    {
      name: 'search',
      description: 'Search UniProtKB; records carry accession, names, genes, organism, length, function, PDB ids.',
      query: 'UniProt query syntax or plain words, e.g. "insulin" or "gene:BRAF"',
      maxLimit: 100,
      defaultLimit: 10,
      cursor: true,
      filters: {
        organism_id: { description: 'NCBI taxon id', pattern: /^\d{1,9}$/, example: '9606' },
        reviewed: { description: '"true" for Swiss-Prot only, "false" for TrEMBL only', pattern: /^(true|false)$/, example: 'true' },
      },
    },
    { name: 'entry', description: 'One UniProtKB entry by accession, with its sequence.', query: 'an accession, e.g. P01308', maxLimit: 1, defaultLimit: 1, cursor: false, filters: {} },
    { name: 'fasta', description: 'The FASTA sequence of an accession.', query: 'an accession, e.g. P01308', maxLimit: 1, defaultLimit: 1, cursor: false, filters: {} },
  ],
  async run(params, ctx: ConnectorContext) {
    if (params.operation === 'entry') {
      const acc = checkAccession(params.query);
      const res = await ctx.get('rest', `/uniprotkb/${acc}.json`, undefined, { accept: 'application/json' });
      return { records: [normalizeUniprotEntry(res.json())], total: 1, nextCursor: null };
    }
    if (params.operation === 'fasta') {
      const acc = checkAccession(params.query);
      const res = await ctx.get('rest', `/uniprotkb/${acc}.fasta`, undefined, { accept: 'text/plain' });
      return { records: parseFasta(res.text()), total: 1, nextCursor: null };
    }
    let query = params.query;
    if (params.filters.organism_id) query = `(${query}) AND organism_id:${params.filters.organism_id}`;
    if (params.filters.reviewed) query = `(${query}) AND reviewed:${params.filters.reviewed}`;
    const res = await ctx.get(
      'rest',
      '/uniprotkb/search',
      { query, format: 'json', fields: FIELDS, size: params.limit, cursor: params.cursor ?? undefined },
      { accept: 'application/json' },
    );
    const body = asObj(res.json());
    if (!Array.isArray(body.results)) throw new Error('no "results" array');
    return {
      records: body.results.map(normalizeUniprotEntry),
      total: asNum(res.headers['x-total-results']),
      nextCursor: nextCursor(res.headers.link),
    };
  },
};
