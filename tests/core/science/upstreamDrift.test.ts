import { afterEach, describe, expect, it } from 'vitest';
import { fixture, startFixtureServer, type Reply } from './fixtureServer';
import { clientFor } from './helpers';

/**
 * Upstream drift: a recorded payload whose identifying field of one record is nulled,
 * emptied or removed. The connector must fail with one error naming the connector, the
 * field and the record index, and nothing from that answer may be cached or recorded.
 */
type Variant = 'nulled' | 'emptied' | 'removed';
const VARIANTS: Variant[] = ['nulled', 'emptied', 'removed'];

function mutateJson(name: string, pick: (body: Record<string, unknown>) => Record<string, unknown>, field: string, v: Variant): Buffer {
  const body = JSON.parse(fixture(name).toString('utf8')) as Record<string, unknown>;
  const rec = pick(body);
  if (v === 'nulled') rec[field] = null;
  else if (v === 'emptied') rec[field] = '';
  else delete rec[field];
  return Buffer.from(JSON.stringify(body));
}

/** XML has no null: "nulled" is whitespace only. Mutates the first match after `after`. */
function mutateXml(name: string, after: string, tag: RegExp, v: Variant): Buffer {
  const text = fixture(name).toString('utf8');
  const at = text.indexOf(after);
  const head = text.slice(0, at);
  const tail = text.slice(at).replace(tag, (whole) => {
    if (v === 'removed') return '';
    const open = whole.slice(0, whole.indexOf('>') + 1);
    const close = whole.slice(whole.lastIndexOf('<'));
    return `${open}${v === 'nulled' ? '   ' : ''}${close}`;
  });
  return Buffer.from(head + tail);
}

const arr = (v: unknown, i = 0) => (v as Record<string, unknown>[])[i]!;

interface Case {
  name: string;
  database: string;
  input: { operation?: string; query: string; limit?: number };
  routes: (v: Variant) => Record<string, Reply>;
  field: string;
  index: number;
}

const PUBCHEM = { PropertyTable: { Properties: [{ CID: 2244, MolecularFormula: 'C9H8O4', Title: 'Aspirin' }, { CID: 5793, MolecularFormula: 'C6H12O6', Title: 'Glucose' }] } };

const CASES: Case[] = [
  {
    name: 'uniprot search',
    database: 'uniprot',
    input: { query: 'BRAF' },
    routes: (v) => ({ '/uniprotkb/search': { body: mutateJson('uniprot-rest-search-braf-reviewed-minimized.json', (b) => arr(b.results), 'primaryAccession', v), headers: { 'content-type': 'application/json' } } }),
    field: 'primaryAccession',
    index: 0,
  },
  {
    name: 'rcsb sequence search',
    database: 'pdb',
    input: { operation: 'sequence', query: 'VLSPADKTNVKAAWGKVGAHAGEYGAEALERMFLSFPTTKTYFPHF', limit: 10 },
    routes: (v) => ({ '/rcsbsearch/v2/query': { body: mutateJson('rcsb-search-v2-sequence-polymer_entity.json', (b) => arr(b.result_set, 1), 'identifier', v) } }),
    field: 'identifier',
    index: 1,
  },
  {
    name: 'chembl mechanism',
    database: 'chembl',
    input: { operation: 'mechanism', query: 'CHEMBL3137343' },
    routes: (v) => ({ '/chembl/api/data/mechanism.json': { body: mutateJson('chembl-mechanism-CHEMBL3137343.json', (b) => arr(b.mechanisms), 'molecule_chembl_id', v) } }),
    field: 'molecule_chembl_id',
    index: 0,
  },
  {
    name: 'arxiv search',
    database: 'arxiv',
    input: { query: 'testing', limit: 10 },
    routes: (v) => ({ '/api/query': { body: mutateXml('arxiv-api-query-search-testing-max10.atom.xml', '<entry', /<id>[^<]*<\/id>/, v) } }),
    field: 'id',
    index: 0,
  },
  {
    name: 'openalex search',
    database: 'openalex',
    input: { query: 'copper' },
    routes: (v) => ({ '/works': { body: mutateJson('openalex-works-search-filter-title.json', (b) => arr(b.results), 'id', v) } }),
    field: 'id',
    index: 0,
  },
  {
    name: 'pubmed search (esummary)',
    database: 'pubmed',
    input: { query: 'APC p.E1317Q', limit: 2 },
    routes: (v) => ({
      '/entrez/eutils/esearch.fcgi': { body: fixture('ncbi-eutils-esearch-pubmed-retmode-json.json') },
      '/entrez/eutils/esummary.fcgi': { body: mutateXml('ncbi-eutils-esummary-pubmed.xml', '<DocSum>', /<Id>[^<]*<\/Id>/, v) },
    }),
    field: 'Id',
    index: 0,
  },
  {
    name: 'pubmed fetch (efetch)',
    database: 'pubmed',
    input: { operation: 'fetch', query: '11748933,11700088' },
    routes: (v) => ({ '/entrez/eutils/efetch.fcgi': { body: mutateXml('ncbi-eutils-efetch-pubmed.xml', '<PubmedArticle>', /<PMID[^>]*>[^<]*<\/PMID>/, v) } }),
    field: 'PMID',
    index: 0,
  },
  {
    name: 'europepmc search',
    database: 'europepmc',
    input: { query: 'MLH1 p.Gly67Glu', limit: 25 },
    routes: (v) => ({ '/europepmc/webservices/rest/search': { body: mutateJson('europepmc-search-mlh1-variant.json', (b) => arr((b.resultList as Record<string, unknown>).result), 'id', v) } }),
    field: 'id',
    index: 0,
  },
  {
    // No PubChem recording exists in the fixtures: a payload of the documented PUG REST property-table shape.
    name: 'pubchem properties',
    database: 'pubchem',
    input: { operation: 'cid', query: '2244' },
    routes: (v) => {
      const body = structuredClone(PUBCHEM) as { PropertyTable: { Properties: Record<string, unknown>[] } };
      const rec = body.PropertyTable.Properties[1]!;
      if (v === 'nulled') rec.CID = null;
      else if (v === 'emptied') rec.CID = '';
      else delete rec.CID;
      return Object.fromEntries(['/rest/pug/compound/cid/2244/property/Title,IUPACName,MolecularFormula,MolecularWeight,ExactMass,SMILES,ConnectivitySMILES,InChI,InChIKey,XLogP,TPSA,HBondDonorCount,HBondAcceptorCount,RotatableBondCount,Charge/JSON'].map((p) => [p, { body: JSON.stringify(body) }]));
    },
    field: 'CID',
    index: 1,
  },
];

let close: (() => unknown) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

describe('upstream drift is reported, never normalised away', () => {
  for (const c of CASES) {
    for (const v of VARIANTS) {
      it(`${c.name}: record ${c.index} with its ${c.field} ${v} is one named error; nothing cached or recorded`, async () => {
        const server = await startFixtureServer(c.routes(v));
        close = server.close;
        const { client, evidence } = clientFor(server.base);
        const attempt = () => client.search(c.database, c.input, { sessionId: 's1' });
        const error = await attempt().then(
          () => null,
          (e: Error) => e,
        );
        expect(error?.message).toMatch(new RegExp(`^${c.database}: the upstream answer changed shape: record ${c.index} has (no|a null|an empty) "${c.field}"`));
        expect(evidence.list('s1')).toEqual([]);
        // Not cached: the same call asks the server again.
        const before = server.seen.length;
        await attempt().catch(() => undefined);
        expect(server.seen.length).toBeGreaterThan(before);
      });
    }
  }
});
