import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src-main/cli/main';
import { createCore } from '../../../src-main/core/core';
import { fixture, startFixtureServer } from './fixtureServer';

let server: Awaited<ReturnType<typeof startFixtureServer>>;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-cli-'));
beforeAll(async () => {
  server = await startFixtureServer({ '/uniprotkb/search': { body: fixture('uniprot-rest-search-braf-reviewed-minimized.json') } });
});
afterAll(() => server.close());

async function cli(args: string[], extraEnv: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const env = { PATH: process.env.PATH, OPENAI4S_DATA_DIR: dataDir, OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_UNIPROT_BASE_URL: server.base, ...extraEnv };
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t) }, env);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('openai4s science', () => {
  it('--json prints normalized records with retrieved_at and the sha256 of the served bytes', async () => {
    const r = await cli(['science', 'uniprot', 'BRAF human', '--json', '--limit', '3']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out);
    expect(json.records[0].id).toBe('P15056');
    expect(json.provenance[0].sha256).toBe(createHash('sha256').update(fixture('uniprot-rest-search-braf-reviewed-minimized.json')).digest('hex'));
    expect(Date.parse(json.provenance[0].retrieved_at)).not.toBeNaN();
    expect(server.seen.at(-1)!.query.get('query')).toBe('BRAF human');
  });

  it('prints a readable table and names a misconfigured endpoint variable', async () => {
    const r = await cli(['science', 'uniprot', 'BRAF human', '--session', 'cli-s1']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/P15056 {2}Serine\/threonine-protein kinase B-raf/);
    expect(r.out).toMatch(/\[ev_[a-z2-7]{16}\]/);
    expect(r.out).toMatch(/sha256=[0-9a-f]{64}/);
    const bad = await cli(['science', 'uniprot', 'BRAF'], { OPENAI4S_UNIPROT_BASE_URL: 'http://example.org' });
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/OPENAI4S_UNIPROT_BASE_URL/);
  });

  it('openai4s artifacts lists nothing for a new session, and refuses a bad id or an unknown session', async () => {
    const core = createCore({ env: { PATH: process.env.PATH, OPENAI4S_DATA_DIR: dataDir, OPENAI4S_KERNEL_PREWARM: '0' } });
    const session = core.ledger.createSession('empty');
    await core.close();
    const r = await cli(['artifacts', session.id]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`No artifacts in session ${session.id}.`);
    expect((await cli(['artifacts', '../x'])).code).toBe(2);
    const unknown = await cli(['artifacts', 'nobody']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/No session "nobody"\. List the sessions with `openai4s sessions`/);
  });
});
