import type { ScienceRecord } from '../../../../src-preload/contract/evidence';
import { asArr, asNum, asObj, asStr, compact, requireId, type Connector } from '../connector';
import { ConnectorError } from '../errors';

/** Stable ids of genes, transcripts, proteins and exons of any species (ENSG..., ENSMUST..., ENSE...). */
const STABLE_ID = /^ENS[A-Z]{0,6}[GTPE]\d{11}(\.\d+)?$/;
const SYMBOL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;

function location(o: Record<string, unknown>): string {
  const region = asStr(o.seq_region_name);
  const start = asNum(o.start);
  const end = asNum(o.end);
  const strand = asNum(o.strand);
  return region && start !== null && end !== null ? `${region}:${start}-${end}${strand !== null ? `:${strand}` : ''}` : '';
}

/** An Ensembl lookup answer (gene, transcript, translation or exon; `expand=1` adds children) to the common envelope. */
export function normalizeEnsemblLookup(raw: unknown, index = 0): ScienceRecord {
  const o = asObj(raw);
  const id = requireId('ensembl', 'id', index, o.id);
  const type = asStr(o.object_type).toLowerCase() || 'feature';
  const name = asStr(o.display_name);
  const description = asStr(o.description).replace(/\s*\[Source:[^\]]*\]\s*$/, '');
  const transcripts = asArr(o.Transcript).map(asObj);
  const exons = asArr(o.Exon).map(asObj);
  const translation = asObj(o.Translation);
  return {
    id,
    title: [name || id, description].filter(Boolean).join(': '),
    url: `https://www.ensembl.org/id/${id}`,
    type,
    attributes: compact({
      name,
      description,
      species: asStr(o.species),
      biotype: asStr(o.biotype),
      assembly: asStr(o.assembly_name),
      location: location(o),
      version: asNum(o.version),
      source: asStr(o.source),
      canonical_transcript: asStr(o.canonical_transcript),
      parent: asStr(o.Parent),
      is_canonical: o.is_canonical === undefined ? undefined : o.is_canonical === 1 || o.is_canonical === true,
      length: asNum(o.length),
      exon_count: exons.length || undefined,
      exons: exons.slice(0, 50).map((e) => `${asStr(e.id)} ${location(e)}`),
      translation: asStr(translation.id) ? `${asStr(translation.id)} (${asNum(translation.length) ?? '?'} aa)` : undefined,
      transcript_count: transcripts.length || undefined,
      transcripts: transcripts.slice(0, 25).map((t) => `${asStr(t.id)} ${asStr(t.display_name)} ${asStr(t.biotype)}${t.is_canonical === 1 ? ' canonical' : ''}`.trim()),
    }),
  };
}

export const ensembl: Connector = {
  database: 'ensembl',
  label: 'Ensembl',
  description: 'Ensembl genes and transcripts: look up a stable id (ENSG/ENST/ENSP...) or a gene symbol in a species; location, biotype, canonical transcript, exons, translation.',
  normalizerVersion: 'ensembl/1',
  operations: [
    { name: 'lookup', description: 'A gene, transcript or protein by Ensembl stable id, with its transcripts or exons.', query: 'a stable id, e.g. ENSG00000157764 or ENST00000237014', maxLimit: 1, defaultLimit: 1, cursor: false, filters: {} },
    {
      name: 'symbol',
      description: 'A gene by symbol in one species, with its transcripts.',
      query: 'a gene symbol, e.g. BRAF',
      maxLimit: 1,
      defaultLimit: 1,
      cursor: false,
      filters: { species: { description: 'Ensembl species name (default homo_sapiens)', pattern: /^[a-z]+(_[a-z]+){1,3}$/, example: 'mus_musculus' } },
    },
  ],
  async run(params, ctx) {
    const query = params.query.trim();
    if (params.operation === 'lookup') {
      if (!STABLE_ID.test(query)) throw new ConnectorError('ensembl', 'invalid_request', `"${query}" is not an Ensembl stable id (like ENSG00000157764); use operation "symbol" for a gene name.`);
      const res = await ctx.get('rest', `/lookup/id/${query.replace(/\.\d+$/, '')}`, { expand: 1, 'content-type': 'application/json' }, { accept: 'application/json', allowStatus: [400] });
      if (res.status === 400) throw new ConnectorError('ensembl', 'not_found', `Ensembl has no feature ${query} (${asStr(asObj(res.json()).error) || 'HTTP 400'}).`, 400);
      return { records: [normalizeEnsemblLookup(res.json())], total: 1, nextCursor: null };
    }
    if (!SYMBOL.test(query)) throw new ConnectorError('ensembl', 'invalid_request', `"${query}" is not a gene symbol (letters, digits, ".", "_", "-").`);
    const species = params.filters.species ?? 'homo_sapiens';
    const res = await ctx.get('rest', `/lookup/symbol/${species}/${encodeURIComponent(query)}`, { expand: 1, 'content-type': 'application/json' }, { accept: 'application/json', allowStatus: [400] });
    if (res.status === 400) throw new ConnectorError('ensembl', 'not_found', `Ensembl has no gene "${query}" in ${species} (${asStr(asObj(res.json()).error) || 'HTTP 400'}).`, 400);
    return { records: [normalizeEnsemblLookup(res.json())], total: 1, nextCursor: null };
  },
};
