import type { ScienceRecord } from '../../../../src-preload/contract/evidence';
import { requireId, UpstreamDriftError, asArr, asNum, asObj, asStr, compact, type Connector } from '../connector';
import { ConnectorError } from '../errors';

/** Requested computed properties. PubChem renamed CanonicalSMILES/IsomericSMILES to ConnectivitySMILES/SMILES in 2025; both are read. */
const PROPERTIES = 'Title,IUPACName,MolecularFormula,MolecularWeight,ExactMass,SMILES,ConnectivitySMILES,InChI,InChIKey,XLogP,TPSA,HBondDonorCount,HBondAcceptorCount,RotatableBondCount,Charge';

export function normalizePubchemProperties(raw: unknown): ScienceRecord[] {
  const table = asObj(asObj(raw).PropertyTable);
  if (!Array.isArray(table.Properties)) throw new Error('no PropertyTable.Properties array');
  return table.Properties.map((p, index) => {
    const r = asObj(p);
    const cid = asNum(requireId('pubchem', 'CID', index, r.CID));
    if (cid === null || cid <= 0 || !Number.isInteger(cid)) throw new UpstreamDriftError('pubchem', 'CID', index, `a non-numeric (${JSON.stringify(r.CID)})`);
    return {
      id: `CID${cid}`,
      title: asStr(r.Title) || asStr(r.IUPACName) || `CID ${cid}`,
      url: `https://pubchem.ncbi.nlm.nih.gov/compound/${cid}`,
      type: 'compound',
      attributes: compact({
        cid,
        iupac_name: asStr(r.IUPACName),
        formula: asStr(r.MolecularFormula),
        molecular_weight: asNum(r.MolecularWeight),
        exact_mass: asNum(r.ExactMass),
        smiles: asStr(r.SMILES) || asStr(r.IsomericSMILES),
        connectivity_smiles: asStr(r.ConnectivitySMILES) || asStr(r.CanonicalSMILES),
        inchi: asStr(r.InChI),
        inchikey: asStr(r.InChIKey),
        xlogp: asNum(r.XLogP),
        tpsa: asNum(r.TPSA),
        hbond_donors: asNum(r.HBondDonorCount),
        hbond_acceptors: asNum(r.HBondAcceptorCount),
        rotatable_bonds: asNum(r.RotatableBondCount),
        charge: asNum(r.Charge),
      }),
    };
  });
}

export const pubchem: Connector = {
  database: 'pubchem',
  label: 'PubChem',
  description: 'PubChem compounds: a name (or CID) to CIDs to computed properties (formula, weight, SMILES, InChIKey, XLogP, TPSA, H-bond counts).',
  normalizerVersion: 'pubchem/1',
  operations: [
    { name: 'compound', description: 'Name to CIDs to computed properties.', query: 'a compound name, e.g. aspirin', maxLimit: 20, defaultLimit: 5, cursor: false, filters: {} },
    { name: 'cid', description: 'Computed properties of one CID.', query: 'a PubChem CID, e.g. 2244', maxLimit: 1, defaultLimit: 1, cursor: false, filters: {} },
  ],
  async run(params, ctx) {
    let cids: number[];
    if (params.operation === 'cid') {
      if (!/^\d{1,10}$/.test(params.query)) throw new ConnectorError('pubchem', 'invalid_request', `"${params.query}" is not a CID (digits, e.g. 2244).`);
      cids = [Number(params.query)];
    } else {
      // PUG REST answers 404 (PUGREST.NotFound) when no compound has that name: zero records, not an error.
      const res = await ctx.get('rest', `/rest/pug/compound/name/${encodeURIComponent(params.query)}/cids/JSON`, undefined, { accept: 'application/json', allowStatus: [404] });
      if (res.status === 404) return { records: [], total: 0, nextCursor: null };
      const list = asObj(asObj(res.json()).IdentifierList);
      if (!Array.isArray(list.CID)) throw new Error('no IdentifierList.CID array');
      cids = asArr(list.CID).map(asNum).filter((n): n is number => n !== null && n > 0);
      if (!cids.length) return { records: [], total: 0, nextCursor: null };
    }
    const total = cids.length;
    const chosen = cids.slice(0, params.limit);
    const res = await ctx.get('rest', `/rest/pug/compound/cid/${chosen.join(',')}/property/${PROPERTIES}/JSON`, undefined, { accept: 'application/json' });
    return { records: normalizePubchemProperties(res.json()), total, nextCursor: null };
  },
};
