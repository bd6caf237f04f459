import path from 'node:path';
import type { ScienceSearchResult } from '../../../src-preload/contract/evidence';
import { ConnectorError } from '../../core/science/errors';
import { ENDPOINT_VARIABLES } from '../../core/science/endpoints';
import { CONNECTORS } from '../../core/science/registry';
import type { CliCommand, CliIO } from '../command';
import { outFolderProblem } from '../outFolder';
import { sessionOptionProblem, usageError } from '../sessionArg';

const USAGE = [
  'openai4s science <db> "<query>" [--op OPERATION] [--limit N] [--cursor C] [--filter k=v,k=v] [--session ID] [--out DIR] [--json]',
  '       openai4s science list [--json]',
  '',
  `Databases: ${CONNECTORS.map((c) => `${c.database} (${c.operations.map((o) => o.name).join('/')})`).join(', ')}.`,
  'Prints the normalized records and the provenance of each HTTP answer (URL, retrieved_at, status, bytes, sha256).',
  '--session records each record as evidence of that session; --out is where pdb download writes (default: the session workspace; never elsewhere in the app’s data folder).',
  `Endpoints are fixed HTTPS hosts; only configuration overrides them: ${ENDPOINT_VARIABLES.join(', ')}.`,
].join('\n');

function printHuman(r: ScienceSearchResult, io: CliIO): void {
  io.out(`${r.database} ${r.operation} "${r.query}": ${r.records.length} record(s)${r.total !== null ? ` of ${r.total}` : ''}`);
  for (const rec of r.records) {
    io.out(`- ${rec.id}  ${rec.title}\n  ${rec.url}${rec.evidence_id ? `  [${rec.evidence_id}]` : ''}`);
    const attrs = Object.entries(rec.attributes)
      .filter(([k]) => k !== 'sequence' && k !== 'abstract')
      .map(([k, v]) => `${k}=${Array.isArray(v) ? v.slice(0, 5).join('|') : String(v)}`);
    if (attrs.length) io.out(`  ${attrs.join('  ').slice(0, 400)}`);
  }
  if (r.next_cursor) io.out(`next page: --cursor ${r.next_cursor}`);
  for (const p of r.provenance) {
    io.out(`provenance: ${p.method} ${p.request_url}\n  retrieved_at=${p.retrieved_at} status=${p.http_status} bytes=${p.byte_length} sha256=${p.sha256} normalizer=${p.normalizer_version}${p.cached ? ' (cached)' : ''}`);
  }
}

function parseFilters(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (raw ?? '').split(',').filter(Boolean)) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`--filter "${pair}" is not key=value.`);
    out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return out;
}

export const scienceCommand: CliCommand = {
  name: 'science',
  summary: 'Query a scientific database (UniProt, PDB, PubChem, ChEMBL, arXiv, OpenAlex, PubMed, Europe PMC) with provenance',
  usage: USAGE,
  options: {
    op: { type: 'string' },
    limit: { type: 'string', short: 'n' },
    cursor: { type: 'string' },
    filter: { type: 'string' },
    session: { type: 'string', short: 's' },
    out: { type: 'string' },
    json: { type: 'boolean' },
  },
  needsCore: true,
  async run({ core, values, positionals, io }) {
    const science = core!.provenance.science;
    if (positionals[0] === 'list' && positionals.length === 1) {
      const list = science.connectors.map((c) => ({ database: c.database, label: c.label, operations: c.operations.map((o) => o.name) }));
      const width = Math.max(...list.map((c) => c.database.length)) + 2;
      io.out(values.json ? JSON.stringify(list, null, 2) : list.map((c) => `${c.database.padEnd(width)}${c.label} (${c.operations.join(', ')})`).join('\n'));
      return 0;
    }
    if (positionals.length !== 2) {
      return usageError(io, 'science')('give a database and one quoted query, e.g. openai4s science uniprot "insulin human"; openai4s science list shows the databases.');
    }
    const [db, query] = positionals as [string, string];
    const limit = typeof values.limit === 'string' ? Number(values.limit) : undefined;
    if (limit !== undefined && !Number.isInteger(limit)) {
      io.err(`--limit ${String(values.limit)}: give a whole number.`);
      return 2;
    }
    const session = typeof values.session === 'string' ? values.session : undefined;
    const sessionProblem = sessionOptionProblem(values.session);
    if (sessionProblem) return usageError(io, 'science')(sessionProblem);
    // Before any request: evidence of a session that does not exist, or a workspace made for it, would be orphans.
    if (session) core!.ledger.sessions.require(session);
    const outProblem = typeof values.out === 'string' ? outFolderProblem(values.out, core!.config.dataDir) : null;
    if (outProblem) return usageError(io, 'science')(outProblem);
    const workspace = typeof values.out === 'string' ? path.resolve(values.out) : session ? core!.kernels.workspaceFor(session) : undefined;
    try {
      const result = await science.search(
        db,
        {
          query,
          ...(typeof values.op === 'string' ? { operation: values.op } : {}),
          ...(limit !== undefined ? { limit } : {}),
          ...(typeof values.cursor === 'string' ? { cursor: values.cursor } : {}),
          filters: parseFilters(typeof values.filter === 'string' ? values.filter : undefined),
        },
        { ...(session ? { sessionId: session } : {}), ...(workspace ? { workspace } : {}) },
      );
      if (values.json) io.out(JSON.stringify(result, null, 2));
      else printHuman(result, io);
      return 0;
    } catch (error) {
      if (error instanceof ConnectorError) {
        io.err(error.message);
        return error.code === 'invalid_request' || error.code === 'not_configured' ? 2 : 1;
      }
      throw error;
    }
  },
};
