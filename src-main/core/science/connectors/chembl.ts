import type { ScienceRecord } from '../../../../src-preload/contract/evidence';
import { requireId, asArr, asNum, asObj, asStr, compact, nextOffsetCursor, offsetFrom, type Connector } from '../connector';
import { ConnectorError } from '../errors';

const CHEMBL_ID = /^CHEMBL\d{1,10}$/;

export function normalizeChemblMolecule(raw: unknown, index = 0): ScienceRecord {
  const m = asObj(raw);
  const id = requireId('chembl', 'molecule_chembl_id', index, m.molecule_chembl_id);
  const props = asObj(m.molecule_properties);
  const structs = asObj(m.molecule_structures);
  return {
    id,
    title: asStr(m.pref_name) || id,
    url: `https://www.ebi.ac.uk/chembl/explore/compound/${id}`,
    type: 'molecule',
    attributes: compact({
      molecule_type: asStr(m.molecule_type),
      max_phase: asNum(m.max_phase),
      first_approval: asNum(m.first_approval),
      formula: asStr(props.full_molformula),
      molecular_weight: asNum(props.full_mwt),
      alogp: asNum(props.alogp),
      smiles: asStr(structs.canonical_smiles),
      inchikey: asStr(structs.standard_inchi_key),
    }),
  };
}

export function normalizeChemblMechanism(raw: unknown, index = 0): ScienceRecord {
  const m = asObj(raw);
  const recordId = asNum(m.mec_id) ?? asNum(m.record_id);
  const molecule = requireId('chembl', 'molecule_chembl_id', index, m.molecule_chembl_id);
  const target = requireId('chembl', 'target_chembl_id', index, m.target_chembl_id);
  return {
    id: `mec_${recordId ?? `${molecule}-${target}`}`,
    title: asStr(m.mechanism_of_action) || `${molecule} acts on ${target}`,
    url: `https://www.ebi.ac.uk/chembl/explore/compound/${molecule}`,
    type: 'mechanism',
    attributes: compact({
      molecule_chembl_id: molecule,
      target_chembl_id: target,
      action_type: asStr(m.action_type),
      max_phase: asNum(m.max_phase),
      direct_interaction: asNum(m.direct_interaction) === null ? undefined : asNum(m.direct_interaction) === 1,
      references: asArr(m.mechanism_refs).map((r) => asStr(asObj(r).ref_url)).filter(Boolean).slice(0, 5),
    }),
  };
}

export const chembl: Connector = {
  database: 'chembl',
  label: 'ChEMBL',
  description: 'ChEMBL bioactive molecules: molecule search (names, synonyms) and mechanisms of action of a molecule.',
  normalizerVersion: 'chembl/1',
  operations: [
    { name: 'molecule', description: 'Search molecules by name or synonym.', query: 'a drug or compound name, e.g. imatinib', maxLimit: 100, defaultLimit: 10, cursor: true, filters: {} },
    { name: 'mechanism', description: 'Mechanisms of action of a ChEMBL molecule.', query: 'a molecule id, e.g. CHEMBL3137343', maxLimit: 100, defaultLimit: 20, cursor: true, filters: {} },
  ],
  async run(params, ctx) {
    const offset = offsetFrom(params.cursor);
    let items: unknown[];
    let pageMeta: Record<string, unknown>;
    let records: ScienceRecord[];
    if (params.operation === 'mechanism') {
      const id = params.query.trim().toUpperCase();
      if (!CHEMBL_ID.test(id)) throw new ConnectorError('chembl', 'invalid_request', `"${params.query}" is not a ChEMBL id (like CHEMBL25); use operation "molecule" to find one.`);
      const body = asObj((await ctx.get('rest', '/chembl/api/data/mechanism.json', { molecule_chembl_id: id, limit: params.limit, offset }, { accept: 'application/json' })).json());
      if (!Array.isArray(body.mechanisms)) throw new Error('no "mechanisms" array');
      items = body.mechanisms;
      pageMeta = asObj(body.page_meta);
      records = items.map(normalizeChemblMechanism);
    } else {
      const body = asObj((await ctx.get('rest', '/chembl/api/data/molecule/search.json', { q: params.query, limit: params.limit, offset }, { accept: 'application/json' })).json());
      if (!Array.isArray(body.molecules)) throw new Error('no "molecules" array');
      items = body.molecules;
      pageMeta = asObj(body.page_meta);
      records = items.map(normalizeChemblMolecule);
    }
    const total = asNum(pageMeta.total_count);
    return { records, total, nextCursor: nextOffsetCursor(offset, records.length, params.limit, total) };
  },
};
