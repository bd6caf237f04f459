import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../src-main/core/core';
import { fixture, startFixtureServer } from './fixtureServer';

let server: Awaited<ReturnType<typeof startFixtureServer>>;
let core: Core;
beforeAll(async () => {
  server = await startFixtureServer({ '/uniprotkb/search': { body: fixture('uniprot-rest-search-braf-reviewed-minimized.json') } });
  core = createCore({
    env: {
      PATH: process.env.PATH,
      LANG: 'C.UTF-8',
      OPENAI4S_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-hostsci-')),
      OPENAI4S_KERNEL_PREWARM: '0',
      OPENAI4S_SANDBOX: 'enforce',
      OPENAI4S_UNIPROT_BASE_URL: server.base,
    },
  });
});
afterAll(async () => {
  await core.close();
  await server.close();
});

describe('host.science in a cell goes through the dispatcher to the connectors', () => {
  it('a Python cell gets normalized records with evidence ids that exist in its session', async () => {
    const session = core.ledger.createSession('science from a cell');
    const code = [
      'import json',
      'r = host.science.search(database="uniprot", query="BRAF human", limit=2)',
      'out = r["output"] if isinstance(r, dict) and "output" in r else r',
      'rec = out["records"][0]',
      'print(json.dumps({"id": rec["id"], "ev": rec["evidence_id"], "sha": out["provenance"][0]["sha256"]}))',
    ].join('\n');
    const cell = await core.kernels.execute(session.id, 'python', code);
    expect(cell.stderr + (cell.error?.traceback ?? '')).toBe('');
    const got = JSON.parse(cell.stdout.trim().split('\n').at(-1)!) as { id: string; ev: string; sha: string };
    expect(got.id).toBe('P15056');
    expect(core.provenance.evidence.missing(session.id, [got.ev])).toEqual([]);
    expect(server.seen.at(-1)!.query.get('size')).toBe('2');
    expect(core.host.registry.names()).toEqual(expect.arrayContaining(['science_list_dbs', 'science_search', 'save_artifact', 'list_artifacts']));
  });
});
