import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CitedAnswer } from '../../../src-preload/contract/answer';
import { dataPartSchemas } from '../../../src-preload/contract/dataParts';
import { runCli } from '../../../src-main/cli/main';
import { createCore } from '../../../src-main/core/core';
import type { RunTreeNode } from '../../../src-main/core/export/runTree';
import { startScriptedModel, type ScriptedModel } from '../../../src-main/core/llm/scripted/server';
import type { StaticStep } from '../../../src-main/core/llm/scripted/script';
import { fixture, startFixtureServer } from '../science/fixtureServer';
import { scriptedCoreEnv } from '../../support/scriptedCore';

/**
 * Issue 20 acceptance, offline: the real core (runner, host, dispatcher, delegation,
 * science connectors, evidence, export), the model played by the scripted model server
 * on the OpenAI wire, and a science mirror on 127.0.0.1 serving recorded real payloads
 * (tests/fixtures/science-apis, origins in its SOURCES.md). A parent fans out six
 * children, one per protein; each searches the mirror and returns a cited result; the
 * parent collects them and finalises an answer citing the children's evidence.
 */

/** One child per protein: the science_search call that finds it in the mirror. */
const PROTEINS = [
  { name: 'BRAF', args: { database: 'uniprot', query: 'BRAF', filters: { organism_id: '9606', reviewed: 'true' }, limit: 5 } },
  { name: 'insulin (INS)', args: { database: 'uniprot', operation: 'fasta', query: 'P01308' } },
  { name: 'haemoglobin alpha (HBA1)', args: { database: 'pdb', operation: 'sequence', query: 'VLSPADKTNVKAAWGKVGAHAGEYGAEALERMFLSFPTTKTYFPHF', filters: { return_type: 'polymer_entity' }, limit: 10 } },
  { name: 'PD-1 (PDCD1), target of pembrolizumab', args: { database: 'chembl', operation: 'mechanism', query: 'CHEMBL3137343' } },
  { name: 'MLH1', args: { database: 'europepmc', query: 'MLH1 p.Gly67Glu', limit: 25 } },
  { name: 'HIV-1 capsid protein (1A8O)', args: { database: 'pdb', operation: 'download', query: '1A8O' } },
] as const;

interface OpenAiMessage {
  role: string;
  content?: string | null;
  tool_call_id?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
}

const toolCall = (name: string, args: unknown): StaticStep => ({ reply: [{ toolCall: { name, arguments: args as Record<string, unknown> } }] });

/** Which tool each tool message answers, from the assistant message that called it. */
function toolResults(messages: OpenAiMessage[]): { name: string; content: string }[] {
  const names = new Map<string, string>();
  for (const m of messages) for (const c of m.tool_calls ?? []) names.set(c.id, c.function.name);
  return messages.filter((m) => m.role === 'tool').map((m) => ({ name: names.get(m.tool_call_id ?? '') ?? '?', content: m.content ?? '' }));
}

const evidenceIds = (text: string): string[] => [...new Set([...text.matchAll(/\bev_[A-Za-z0-9_-]+/g)].map((m) => m[0]))];

/** The model: the parent delegates, collects and answers; each child finds its protein and answers with its evidence. */
function play(body: unknown): StaticStep {
  const messages = (body as { messages: OpenAiMessage[] }).messages;
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const task = messages.find((m) => m.role === 'user')?.content ?? '';
  const results = toolResults(messages);
  const last = results.at(-1);
  if (system.includes('## You are a child agent')) {
    const protein = PROTEINS.find((p) => task.includes(p.name))!;
    if (!last) return toolCall('find_tools', { query: 'science search' });
    if (last.name === 'find_tools') return toolCall('science_search', protein.args);
    const ids = evidenceIds(last.content).slice(0, 1);
    return toolCall('finalize_response', {
      summary: `${protein.name}: found in the mirror.`,
      claims: [{ statement: `The mirror has a record for ${protein.name}.`, basis: 'observed', evidence: ids, uncertainty: 'low' }],
      limitations: ['Recorded payloads, not live databases.'],
      next_steps: [],
      suggested_questions: [],
      artifacts: [],
      completion_bullets: [`Searched for ${protein.name}`],
    });
  }
  if (!last) return toolCall('find_tools', { query: 'delegate child agents' });
  if (last.name === 'find_tools') {
    return toolCall('delegate_task', { tasks: PROTEINS.map((p) => ({ task: `Find ${p.name} in the science databases and give a cited result.`, constraints: 'Use science_search only; cite the evidence id.' })) });
  }
  if (last.name === 'delegate_task') return toolCall('collect_children', {});
  const collected = results.find((r) => r.name === 'collect_children')!.content;
  const perChild = collected.split(/\n(?=child )/);
  return toolCall('finalize_response', {
    summary: 'All six proteins were found by the child agents in the science mirror.',
    claims: perChild.map((block) => ({ statement: block.split('\n')[1]!.replace(/^\s*summary:\s*/, ''), basis: 'observed', evidence: evidenceIds(block), uncertainty: 'low' })),
    limitations: ['Recorded payloads, not live databases.'],
    next_steps: [],
    suggested_questions: [],
    artifacts: [],
    completion_bullets: ['Delegated six searches', 'Collected six cited results'],
  });
}

let dir: string;
let model: ScriptedModel;
let mirror: Awaited<ReturnType<typeof startFixtureServer>>;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-fanout-'));
  model = await startScriptedModel([play], { loop: true });
  mirror = await startFixtureServer({
    '/uniprotkb/search': { body: fixture('uniprot-rest-search-braf-reviewed-minimized.json'), headers: { 'content-type': 'application/json', 'x-total-results': '1' } },
    '/uniprotkb/P01308.fasta': { body: fixture('uniprot-P01308.fasta') },
    '/rcsbsearch/v2/query': { body: fixture('rcsb-search-v2-sequence-polymer_entity.json') },
    '/download/1A8O.cif': { body: fixture('pdb-1A8O.cif') },
    '/chembl/api/data/mechanism.json': { body: fixture('chembl-mechanism-CHEMBL3137343.json') },
    '/europepmc/webservices/rest/search': { body: fixture('europepmc-search-mlh1-variant.json') },
  });
  const bases = ['UNIPROT', 'PDB_SEARCH', 'PDB_DATA', 'PDB_FILES', 'CHEMBL', 'EUROPEPMC'].map((db) => [`OPENAI4S_${db}_BASE_URL`, mirror.base]);
  env = scriptedCoreEnv(dir, model.baseUrl, Object.fromEntries(bases));
});

afterAll(async () => {
  await model?.close();
  await mirror?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('delegation acceptance: six children, one per protein, on a science mirror', () => {
  let sessionId = '';

  it('the parent fans out, each child returns a cited result, and the parent answers citing their evidence', async () => {
    const core = createCore({ env });
    try {
      const session = core.ledger.createSession('Six proteins');
      sessionId = session.id;
      const run = core.runner.submit({ sessionId, mutationId: 'six', message: 'Survey six proteins in parallel, one child agent each.' });
      const done = await core.runner.result(run.id);
      expect(done.failureMessage).toBeNull();
      expect(done.status).toBe('completed');

      const children = core.ledger.runs.listChildren(sessionId);
      expect(children).toHaveLength(6);
      expect(children.every((c) => c.parentRunId === run.id && c.depth === 1 && c.status === 'completed')).toBe(true);
      // Each child asked the mirror for its own protein.
      const paths = new Set(mirror.seen.map((r) => r.path));
      for (const p of ['/uniprotkb/search', '/uniprotkb/P01308.fasta', '/rcsbsearch/v2/query', '/download/1A8O.cif', '/chembl/api/data/mechanism.json', '/europepmc/webservices/rest/search']) expect(paths).toContain(p);

      const message = core.ledger.history(sessionId).messages.at(-1)!;
      const answer = (message.parts.find((p) => p.type === 'data-answer') as { data: CitedAnswer }).data;
      expect(answer.cited).toBe(true);
      expect(answer.claims).toHaveLength(6);
      const evidence = core.provenance.evidence;
      const cited = answer.claims.flatMap((c) => c.evidence);
      expect(new Set(cited).size).toBe(6);
      // The parent cites the evidence its children gathered: session evidence, recorded by the children's calls.
      for (const id of cited) expect(evidence.get(sessionId, id), id).not.toBeNull();
      const childParts = message.parts.filter((p) => p.type === 'data-child') as { data: { runId: string; status: string; evidence: string[] } }[];
      expect(childParts.map((p) => p.data.status)).toEqual(Array(6).fill('completed'));
      // Every child part is valid by the contract's map of data parts.
      for (const p of childParts) expect(dataPartSchemas.child.safeParse(p.data).success).toBe(true);
      expect(new Set(childParts.flatMap((p) => p.data.evidence))).toEqual(new Set(cited));
      // The children's streams are in the session's stream, under their own run ids, and stay out of the messages.
      const events = core.ledger.events.readFrom(sessionId);
      for (const c of children) expect(events.some((e) => e.runId === c.id && e.chunk.type === 'data-child-event')).toBe(true);
      expect(core.ledger.history(sessionId).messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    } finally {
      await core.close();
    }
  }, 120_000);

  it('the export contains the run tree and verify passes', async () => {
    // Outside the data root: the CLI never writes into the app’s data folder.
    const zip = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-fanout-out-')), 'six.zip');
    let log = '';
    const io = { out: (t: string) => (log += t), err: (t: string) => (log += t) };
    expect(await runCli(['export', sessionId, '-o', zip], io, env), log).toBe(0);
    expect(await runCli(['verify', zip], io, env), log).toBe(0);
    const entries = unzipSync(new Uint8Array(fs.readFileSync(zip)));
    const tree = JSON.parse(strFromU8(entries['ledger/run_tree.json']!)) as RunTreeNode[];
    expect(tree).toHaveLength(1);
    expect(tree[0]!.children).toHaveLength(6);
    expect(tree[0]!.children.every((c) => c.depth === 1 && c.status === 'completed' && c.children.length === 0)).toBe(true);
    // `openai4s show` lists the children under their run, and in --json.
    let shown = '';
    expect(await runCli(['show', sessionId, '--json'], { out: (t: string) => (shown += t), err: (t: string) => (log += t) }, env), log).toBe(0);
    expect((JSON.parse(shown) as { childRuns: { parentRunId: string }[] }).childRuns.map((c) => c.parentRunId)).toEqual(Array(6).fill(tree[0]!.id));
    let text = '';
    expect(await runCli(['show', sessionId], { out: (t: string) => (text += t), err: (t: string) => (log += t) }, env), log).toBe(0);
    expect(text).toContain('runs (1, and 6 child agent runs)');
    expect(text).toMatch(new RegExp(`\\n    ${tree[0]!.children[0]!.id}  completed .*child: Find BRAF`));
    // The children's tool calls are in the exported action events.
    const actions = strFromU8(entries['ledger/action_events.jsonl']!);
    for (const c of tree[0]!.children) expect(actions).toContain(c.id);
  }, 60_000);
});
