import type { ScienceRecord } from '../../../../src-preload/contract/evidence';
import { requireId, asArr, asNum, asObj, asStr, compact, nextOffsetCursor, offsetFrom, type Connector, type ConnectorParams, type ConnectorContext } from '../connector';
import { ConnectorError } from '../errors';

const PDB_ID = /^[0-9][A-Za-z0-9]{3}$/;
const entryUrl = (id: string) => `https://www.rcsb.org/structure/${id}`;

function checkId(query: string): string {
  const id = query.trim().toUpperCase();
  if (!PDB_ID.test(id)) throw new ConnectorError('pdb', 'invalid_request', `"${query}" is not a PDB id (4 characters like 4INS); use operation "search" to find one.`);
  return id;
}

/** RCSB Search API v2 answer (`result_set` of identifier + score). */
export function normalizeRcsbSearch(raw: unknown, returnType: string): { records: ScienceRecord[]; total: number | null } {
  const body = asObj(raw);
  if (!Array.isArray(body.result_set)) throw new Error('no "result_set" array');
  const records = body.result_set.map((r, index) => {
    const hit = asObj(r);
    const identifier = requireId('pdb', 'identifier', index, hit.identifier);
    const entry = identifier.split(/[_.-]/)[0]!;
    return {
      id: identifier,
      title: `PDB ${returnType.replace('_', ' ')} ${identifier}`,
      url: entryUrl(entry),
      type: returnType === 'entry' ? 'structure' : returnType,
      attributes: compact({ entry_id: entry, score: asNum(hit.score) }),
    };
  });
  return { records, total: asNum(body.total_count) };
}

/** RCSB Data API `core/entry/{id}` to the envelope. */
export function normalizeRcsbEntry(raw: unknown): ScienceRecord {
  const e = asObj(raw);
  const id = requireId('pdb', 'rcsb_id', 0, asStr(e.rcsb_id) || asObj(e.entry).id);
  const info = asObj(e.rcsb_entry_info);
  const citation = asObj(e.rcsb_primary_citation);
  return {
    id,
    title: asStr(asObj(e.struct).title) || id,
    url: entryUrl(id),
    type: 'structure',
    attributes: compact({
      method: asStr(asObj(asArr(e.exptl)[0]).method),
      resolution_angstrom: asNum(asArr(info.resolution_combined)[0]),
      molecular_weight_kda: asNum(info.molecular_weight),
      polymer_entity_count: asNum(info.polymer_entity_count),
      deposited_atom_count: asNum(info.deposited_atom_count),
      deposit_date: asStr(asObj(e.rcsb_accession_info).deposit_date),
      release_date: asStr(asObj(e.rcsb_accession_info).initial_release_date),
      keywords: asStr(asObj(e.struct_keywords).pdbx_keywords),
      citation_title: asStr(citation.title),
      citation_doi: asStr(citation.pdbx_database_id_doi),
      citation_pubmed: asNum(citation.pdbx_database_id_pub_med),
    }),
  };
}

/** A title and atom count read from a downloaded PDB or mmCIF file. */
export function describeStructureFile(text: string, format: 'pdb' | 'cif'): { title: string; atoms: number } {
  if (format === 'pdb') {
    if (!/^(HEADER|TITLE|ATOM|HETATM|REMARK|CRYST1|COMPND)/m.test(text)) throw new Error('the file is not in PDB format');
    const title = text
      .split('\n')
      .filter((l) => l.startsWith('TITLE '))
      .map((l) => l.slice(10).trim())
      .join(' ')
      .replace(/\s+/g, ' ');
    const atoms = text.split('\n').filter((l) => l.startsWith('ATOM  ') || l.startsWith('HETATM')).length;
    return { title, atoms };
  }
  if (!/^data_/m.test(text)) throw new Error('the file is not mmCIF (no data_ block)');
  const m = /^_struct\.title\s+(?:'([^']*)'|"([^"]*)"|(\S.*)|\n;([\s\S]*?)\n;)/m.exec(text);
  const title = (m?.[1] ?? m?.[2] ?? m?.[3] ?? m?.[4] ?? '').replace(/\s+/g, ' ').trim();
  const atoms = text.split('\n').filter((l) => l.startsWith('ATOM ') || l.startsWith('HETATM ')).length;
  return { title, atoms };
}

async function search(params: ConnectorParams, ctx: ConnectorContext, sequence: boolean) {
  const start = offsetFrom(params.cursor);
  const returnType = params.filters.return_type ?? 'entry';
  const query = sequence
    ? {
        type: 'terminal',
        service: 'sequence',
        parameters: {
          evalue_cutoff: Number(params.filters.evalue_cutoff ?? 0.1),
          identity_cutoff: Number(params.filters.identity_cutoff ?? 0.9),
          sequence_type: 'protein',
          value: params.query.replace(/\s+/g, '').toUpperCase(),
        },
      }
    : { type: 'terminal', service: 'full_text', parameters: { value: params.query } };
  const res = await ctx.post(
    'search',
    '/rcsbsearch/v2/query',
    { query, return_type: returnType, request_options: { paginate: { start, rows: params.limit } } },
    { accept: 'application/json', allowStatus: [204] },
  );
  // The Search API answers 204 No Content when nothing matches.
  if (res.status === 204) return { records: [], total: 0, nextCursor: null };
  const { records, total } = normalizeRcsbSearch(res.json(), returnType);
  return { records, total, nextCursor: nextOffsetCursor(start, records.length, params.limit, total) };
}

const returnType = { description: 'what the hits are: entry or polymer_entity', pattern: /^(entry|polymer_entity)$/, example: 'entry' };

export const pdb: Connector = {
  database: 'pdb',
  label: 'RCSB PDB',
  description: 'RCSB Protein Data Bank: full-text or sequence search, entry metadata, and PDB/mmCIF file download into the workspace.',
  normalizerVersion: 'pdb/1',
  operations: [
    { name: 'search', description: 'Full-text search of PDB entries.', query: 'words, e.g. "insulin hexamer"', maxLimit: 100, defaultLimit: 10, cursor: true, filters: { return_type: returnType } },
    {
      name: 'sequence',
      description: 'Entries whose polymer sequences match a protein sequence (MMseqs2 on RCSB).',
      query: 'a protein sequence in one-letter code',
      maxLimit: 100,
      defaultLimit: 10,
      cursor: true,
      filters: {
        return_type: returnType,
        identity_cutoff: { description: 'minimum identity, 0 to 1', pattern: /^(0(\.\d{1,3})?|1(\.0{1,3})?)$/, example: '0.9' },
        evalue_cutoff: { description: 'maximum E-value', pattern: /^\d{1,3}(\.\d{1,6})?(e-?\d{1,3})?$/, example: '0.1' },
      },
    },
    { name: 'entry', description: 'Metadata of one entry: title, method, resolution, dates, citation.', query: 'a PDB id, e.g. 4INS', maxLimit: 1, defaultLimit: 1, cursor: false, filters: {} },
    {
      name: 'download',
      description: 'Download the coordinate file into the session workspace (structures/<ID>.<format>).',
      query: 'a PDB id, e.g. 4INS',
      maxLimit: 1,
      defaultLimit: 1,
      cursor: false,
      filters: { format: { description: 'cif (mmCIF, default) or pdb', pattern: /^(cif|pdb)$/, example: 'cif' } },
    },
  ],
  async run(params, ctx) {
    if (params.operation === 'search') return search(params, ctx, false);
    if (params.operation === 'sequence') return search(params, ctx, true);
    const id = checkId(params.query);
    if (params.operation === 'entry') {
      const res = await ctx.get('data', `/rest/v1/core/entry/${id}`, undefined, { accept: 'application/json' });
      return { records: [normalizeRcsbEntry(res.json())], total: 1, nextCursor: null };
    }
    if (!ctx.hasWorkspace) {
      throw new ConnectorError('pdb', 'invalid_request', 'download needs a session workspace (run it in a session, or give --out DIR on the CLI).');
    }
    const format = (params.filters.format ?? 'cif') as 'cif' | 'pdb';
    const res = await ctx.get('files', `/download/${id}.${format}`, undefined, { accept: 'chemical/x-mmcif, chemical/x-pdb, text/plain' });
    const text = res.text();
    const { title, atoms } = describeStructureFile(text, format);
    const file = ctx.writeWorkspaceFile(`structures/${id}.${format}`, res.bytes);
    return {
      records: [
        {
          id,
          title: title || id,
          url: entryUrl(id),
          type: 'structure_file',
          attributes: { path: file, format, bytes: res.bytes.byteLength, sha256: res.provenance.sha256, atom_records: atoms },
        },
      ],
      total: 1,
      nextCursor: null,
    };
  },
};
