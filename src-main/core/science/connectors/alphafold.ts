import type { ScienceRecord } from '../../../../src-preload/contract/evidence';
import { asArr, asNum, asObj, asStr, compact, requireId, type Connector } from '../connector';
import { ConnectorError } from '../errors';

const ACCESSION = /^([OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9]([A-Z][A-Z0-9]{2}[0-9]){1,2})(-\d+)?$/;

/** One AlphaFold DB prediction (an item of /api/prediction/{accession}) to the common envelope. */
export function normalizeAlphafoldPrediction(raw: unknown, index = 0): ScienceRecord {
  const p = asObj(raw);
  const id = requireId('alphafold', 'entryId', index, p.entryId ?? p.modelEntityId);
  const accession = asStr(p.uniprotAccession);
  return {
    id,
    title: `${asStr(p.uniprotDescription) || accession} (${asStr(p.organismScientificName) || 'unknown organism'})`,
    url: `https://alphafold.ebi.ac.uk/entry/${accession || id}`,
    type: 'predicted_structure',
    attributes: compact({
      uniprot_accession: accession,
      uniprot_id: asStr(p.uniprotId),
      gene: asStr(p.gene),
      organism: asStr(p.organismScientificName),
      taxon_id: asNum(p.taxId),
      residues: `${asNum(p.uniprotStart) ?? asNum(p.sequenceStart) ?? '?'}-${asNum(p.uniprotEnd) ?? asNum(p.sequenceEnd) ?? '?'}`,
      mean_plddt: asNum(p.globalMetricValue),
      fraction_plddt_very_high: asNum(p.fractionPlddtVeryHigh),
      fraction_plddt_confident: asNum(p.fractionPlddtConfident),
      fraction_plddt_low: asNum(p.fractionPlddtLow),
      fraction_plddt_very_low: asNum(p.fractionPlddtVeryLow),
      model_version: asNum(p.latestVersion),
      model_created: asStr(p.modelCreatedDate).slice(0, 10),
      tool: asStr(p.toolUsed),
      cif_url: asStr(p.cifUrl),
      pdb_url: asStr(p.pdbUrl),
      pae_url: asStr(p.paeDocUrl),
    }),
  };
}

async function predictions(accession: string, ctx: Parameters<Connector['run']>[1]) {
  const res = await ctx.get('rest', `/api/prediction/${accession}`, undefined, { accept: 'application/json', allowStatus: [404] });
  if (res.status === 404) throw new ConnectorError('alphafold', 'not_found', `AlphaFold DB has no prediction for ${accession}.`, 404);
  const list = asArr(res.json());
  if (!list.length) throw new ConnectorError('alphafold', 'not_found', `AlphaFold DB has no prediction for ${accession}.`);
  return list;
}

export const alphafold: Connector = {
  database: 'alphafold',
  label: 'AlphaFold DB',
  description: 'AlphaFold DB predicted structures by UniProt accession: confidence (pLDDT), model version and files; download the model into the workspace.',
  normalizerVersion: 'alphafold/1',
  operations: [
    { name: 'prediction', description: 'The predicted models of a UniProt accession, with their confidence and file URLs.', query: 'a UniProt accession, e.g. P50613', maxLimit: 5, defaultLimit: 1, cursor: false, filters: {} },
    {
      name: 'download',
      description: 'Download the predicted model into the session workspace (structures/AF-<accession>-F1-model_v<N>.<format>).',
      query: 'a UniProt accession, e.g. P50613',
      maxLimit: 1,
      defaultLimit: 1,
      cursor: false,
      filters: { format: { description: 'cif (mmCIF, default) or pdb', pattern: /^(cif|pdb)$/, example: 'cif' } },
    },
  ],
  async run(params, ctx) {
    const accession = params.query.trim().toUpperCase();
    if (!ACCESSION.test(accession)) throw new ConnectorError('alphafold', 'invalid_request', `"${params.query}" is not a UniProt accession (like P50613); find one with the uniprot database.`);
    if (params.operation === 'download' && !ctx.hasWorkspace) {
      throw new ConnectorError('alphafold', 'invalid_request', 'download needs a session workspace (run it in a session, or give --out DIR on the CLI).');
    }
    const list = await predictions(accession, ctx);
    const records = list.map(normalizeAlphafoldPrediction);
    if (params.operation === 'prediction') return { records: records.slice(0, params.limit), total: records.length, nextCursor: null };
    const format = params.filters.format ?? 'cif';
    const fileUrl = asStr(asObj(list[0])[format === 'cif' ? 'cifUrl' : 'pdbUrl']);
    let filePath: string;
    try {
      filePath = new URL(fileUrl).pathname;
    } catch {
      throw new ConnectorError('alphafold', 'malformed_response', `the prediction of ${accession} names no ${format} file.`);
    }
    // Only a model file's name is asked for, and only from the configured AlphaFold host (the same one
    // that answered), never from a URL in the answer: the name is checked before anything is fetched.
    const name = filePath.split('/').pop()!;
    if (!/^AF-[A-Z0-9-]+-F\d+-model_v\d+\.(cif|pdb)$/.test(name)) throw new ConnectorError('alphafold', 'malformed_response', `unexpected model file name "${name}".`);
    const file = await ctx.get('rest', filePath, undefined, { accept: 'chemical/x-mmcif, chemical/x-pdb, text/plain, */*' });
    const saved = ctx.writeWorkspaceFile(`structures/${name}`, file.bytes);
    const record = records[0]!;
    record.type = 'file';
    record.attributes = { ...record.attributes, path: saved, format, bytes: file.bytes.byteLength, sha256: file.provenance.sha256 };
    return { records: [record], total: 1, nextCursor: null };
  },
};
