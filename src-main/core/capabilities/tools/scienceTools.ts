import { z } from 'zod';
import type { ScienceDatabase, ScienceSearchResult } from '../../../../src-preload/contract/evidence';
import type { ScienceClient } from '../../science/client';
import type { ToolContext, ToolOutput } from '../define';

const DATABASES = ['uniprot', 'pdb', 'pubchem', 'chembl', 'arxiv', 'openalex', 'pubmed', 'europepmc', 'ensembl', 'crossref', 'alphafold'] as const satisfies readonly ScienceDatabase[];

export const scienceListDbsInput = z.object({}).strict();

export const scienceSearchInput = z
  .object({
    database: z.enum(DATABASES).describe('Which database; see science_list_dbs.'),
    query: z.string().min(1).max(2000).describe('What to look up; its syntax depends on the operation.'),
    operation: z.string().regex(/^[a-z_]{1,40}$/).optional().describe('Default: the database\'s first operation (search).'),
    limit: z.number().int().min(1).max(100).optional(),
    cursor: z.string().max(2000).optional().describe('next_cursor of the previous page, unchanged.'),
    filters: z.record(z.string().regex(/^[a-z_]{1,40}$/), z.string().max(200)).optional(),
  })
  .strict();

/** What `science_list_dbs` tells the model: databases, operations, limits, filters. */
export function describeDatabases(client: ScienceClient) {
  return client.connectors.map((c) => ({
    database: c.database,
    label: c.label,
    description: c.description,
    operations: c.operations.map((o) => ({
      name: o.name,
      description: o.description,
      query: o.query,
      max_limit: o.maxLimit,
      pages: o.cursor,
      filters: Object.fromEntries(Object.entries(o.filters).map(([k, f]) => [k, `${f.description} (e.g. ${f.example})`])),
    })),
  }));
}

/** The model-facing text of a search: records with their evidence ids, then the provenance. */
export function formatSearchForModel(r: ScienceSearchResult): string {
  return JSON.stringify({
    database: r.database,
    operation: r.operation,
    total: r.total,
    next_cursor: r.next_cursor,
    records: r.records,
    provenance: r.provenance.map((p) => ({ request_url: p.request_url, retrieved_at: p.retrieved_at, http_status: p.http_status, sha256: p.sha256, cached: p.cached })),
    note: r.records.length ? 'Cite evidence_id values in observed claims.' : 'No records matched.',
  });
}

/**
 * Tool specs for defineTool (capabilities/define.ts), run with the same ToolContext as every
 * tool. `clientOf` is called per call, so the store behind it can open lazily.
 */
export function scienceCapabilities(clientOf: () => ScienceClient) {
  return {
    science_list_dbs: {
      name: 'science_list_dbs',
      description: 'List the scientific databases science_search can query, with their operations, limits and filters.',
      input: scienceListDbsInput,
      sideEffect: 'read' as const,
      // Offered on demand (find_tools): kept out of the first request.
      onDemand: true,
      defaultPolicy: 'allow' as const,
      hostMethods: ['science.list_dbs'],
      resourceKeys: () => [],
      target: () => 'science',
      execute: async (): Promise<ToolOutput> => {
        const dbs = describeDatabases(clientOf());
        return { text: JSON.stringify(dbs), output: dbs };
      },
    },
    science_search: {
      name: 'science_search',
      description:
        // The database enum lists them; science_list_dbs describes each (kept short for the first request).
        'Query a scientific database (proteins, structures, compounds, genes, literature). Returns normalized records, each with an evidence_id to cite, and the provenance of the raw answer.',
      input: scienceSearchInput,
      sideEffect: 'network' as const,
      defaultPolicy: 'allow' as const,
      hostMethods: ['science.search'],
      resourceKeys: (a: z.output<typeof scienceSearchInput>) =>
        a.database === 'pdb' && a.operation === 'download' ? [`science:pdb`, `file:structures/${a.query.trim().toUpperCase()}.${a.filters?.format ?? 'cif'}`] : [`science:${a.database}`],
      target: (a: z.output<typeof scienceSearchInput>) => a.database,
      execute: async (a: z.output<typeof scienceSearchInput>, ctx: ToolContext): Promise<ToolOutput> => {
        const result = await clientOf().search(a.database, a, { sessionId: ctx.sessionId, workspace: ctx.workspace, signal: ctx.signal });
        return { text: formatSearchForModel(result), output: result, untrustedSource: `science:${a.database}` };
      },
    },
  };
}
