import { afterEach, describe, expect, it } from 'vitest';
import { dataPartSchemas } from '../../../../src-preload/contract/dataParts';
import type { StreamChunk } from '../../../../src-preload/contract/stream';
import { navigatorTool } from '../../../../src-main/core/capabilities/tools/navigatorTools';
import { MemoryEvidenceStore } from '../../../../src-main/core/records/evidenceStore';
import { clearRegisteredSecrets, scrubSecrets } from '../../../../src-main/core/security/secrets';
import { frame, startNavigatorServer, streamFrames } from './navigatorServer';

let server: Awaited<ReturnType<typeof startNavigatorServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  clearRegisteredSecrets();
});

const KEY = 'bohr-tool-key-9876543210';

function setup(key: string | undefined, base: string) {
  const evidence = new MemoryEvidenceStore();
  const tool = navigatorTool({ key: () => key, baseUrl: () => base, evidence: () => evidence, historyPauseMs: 1 });
  const chunks: StreamChunk[] = [];
  const ctx = { sessionId: 's1', runId: 'r1', workspace: '/tmp', signal: new AbortController().signal, origin: 'tool' as const, toolCallId: 'call_nav', emit: (c: StreamChunk) => chunks.push(c) };
  return { tool, evidence, chunks, ctx };
}

describe('science_navigator tool', () => {
  it('is found on demand, answers cells as host.navigator and host.science.navigator', () => {
    const { tool } = setup(KEY, 'http://127.0.0.1:1');
    expect(tool.onDemand).toBe(true);
    expect(tool.hostMethods).toEqual(['navigator', 'science.navigator']);
  });

  it('without a key says how to get and set one', async () => {
    const { tool, ctx } = setup(undefined, 'http://127.0.0.1:1');
    await expect(tool.execute({ question: 'What is CRISPR?' }, ctx)).rejects.toThrow(/no access key is set\. Create an access key in your Bohrium account.*set OPENAI4S_BOHRIUM_ACCESS_KEY/);
  });

  it('streams thinking steps and the answer into the tool card, records used references as citable evidence, all results as non-cited evidence', async () => {
    server = await startNavigatorServer({});
    const { tool, ctx, chunks, evidence } = setup(KEY, server.base);
    const out = await tool.execute({ question: 'CRISPR-Cas9 in gene therapy since 2021?' }, ctx);

    // Thinking steps: a tree (children name their parent), valid by the data-part schema, ending completed.
    const steps = chunks.filter((c) => c.type === 'data-thinking-step') as { id: string; data: unknown }[];
    expect(steps.length).toBeGreaterThan(3);
    for (const s of steps) expect(dataPartSchemas['thinking-step'].safeParse(s.data).success).toBe(true);
    const last = new Map(steps.map((s) => [s.id, s.data as { title: string; status: string; parentId?: string }]));
    const root = last.get('nav-call_nav-1')!;
    expect(root).toMatchObject({ title: 'Thinking completed', status: 'completed' });
    expect(last.get('nav-call_nav-1.2')).toMatchObject({ title: 'Evidence search completed', status: 'completed', parentId: 'nav-call_nav-1' });
    // The same step was re-sent as it changed: running while its queries arrived, then completed.
    const search = steps.filter((s) => s.id === 'nav-call_nav-1.2').map((s) => s.data as { status: string; items?: string[] });
    expect(search.map((s) => s.status)).toEqual(['in_progress', 'in_progress', 'in_progress', 'completed']);
    expect(search.map((s) => s.items?.length ?? 0)).toEqual([0, 1, 2, 3]);

    // The answer text grows in the tool card as preliminary output.
    const prelim = chunks.filter((c) => c.type === 'tool-output-available') as { preliminary?: boolean; toolCallId: string; output: { text: string } }[];
    expect(prelim.length).toBeGreaterThan(0);
    expect(prelim.every((p) => p.preliminary === true && p.toolCallId === 'call_nav')).toBe(true);
    expect(prelim.at(-1)!.output.text.startsWith('## CRISPR-Cas9 in gene therapy')).toBe(true);

    // Used references: evidence with bibliographic fields and the hash of the received bytes.
    const records = evidence.list('s1');
    const refs = records.filter((r) => r.envelope.role === 'reference');
    expect(refs.map((r) => r.envelope.doi)).toEqual(['10.1056/NEJMoa2031054', '10.1056/NEJMoa2107454']);
    expect(refs[0]!.envelope).toMatchObject({ year: 2021, journal: 'New England Journal of Medicine', authors: expect.arrayContaining(['Haydar Frangoul']), url: 'https://doi.org/10.1056/NEJMoa2031054', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), received_via: 'stream' });
    expect(records.filter((r) => r.envelope.role === 'search_result')).toHaveLength(4);
    expect(records.filter((r) => r.envelope.role === 'answer')).toHaveLength(1);

    // The model reads the references with their evidence ids, and the suggestions.
    for (const r of refs) expect(out.text).toContain(`[${r.id}]`);
    expect(out.text).toContain('Which CRISPR therapies are approved outside the US?');
    expect(out.untrustedSource).toMatch(/science_navigator/);
    expect((out.output as { suggested_questions: string[] }).suggested_questions).toHaveLength(2);

    // The key is a registered secret: scrubbed from anything stored or printed.
    expect(scrubSecrets(`token ${KEY}`)).not.toContain(KEY);
  });

  it('two calls from one cell keep separate thinking-step trees', async () => {
    server = await startNavigatorServer({});
    const { tool, ctx, chunks } = setup(KEY, server.base);
    const cellCtx = { ...ctx, origin: 'cell' as const, toolCallId: undefined, cell: { cellId: 'cell-1', generation: 'g1', language: 'python' as const } };
    await tool.execute({ question: 'First question?' }, cellCtx);
    await tool.execute({ question: 'Second question?' }, cellCtx);
    const roots = new Set(chunks.filter((c) => c.type === 'data-thinking-step' && !(c as { data: { parentId?: string } }).data.parentId).map((c) => (c as { id: string }).id));
    expect(roots.size).toBe(2);
    for (const id of roots) expect(id).toMatch(/^nav-cell-1-[0-9a-f]{8}-1$/);
    // A cell call has no tool card: no preliminary output.
    expect(chunks.some((c) => c.type === 'tool-output-available')).toBe(false);
  });

  it('an answer that failed before any text is an error naming why', async () => {
    const frames = [...streamFrames().slice(0, 3), frame({ channel: { answerId: 'ans-1' }, system: { event: { type: 'error', message: 'upstream model overloaded' } } })];
    server = await startNavigatorServer({ frames });
    const { tool, ctx, evidence } = setup(KEY, server.base);
    await expect(tool.execute({ question: 'CRISPR-Cas9 in gene therapy since 2021?' }, ctx)).rejects.toThrow(/session sn-7f3c2a produced no answer \(upstream model overloaded\)/);
    expect(evidence.list('s1')).toEqual([]);
  });

  it('a stream cut mid-answer still records the same references (read from history)', async () => {
    server = await startNavigatorServer({ stopAfter: { frames: streamFrames().length - 3, how: 'cut' } });
    const { tool, ctx, evidence } = setup(KEY, server.base);
    const out = await tool.execute({ question: 'CRISPR-Cas9 in gene therapy since 2021?' }, ctx);
    expect(out.text).toMatch(/the stream was interrupted/);
    const refs = evidence.list('s1').filter((r) => r.envelope.role === 'reference');
    expect(refs.map((r) => [r.envelope.doi, r.envelope.received_via])).toEqual([
      ['10.1056/NEJMoa2031054', 'history'],
      ['10.1056/NEJMoa2107454', 'history'],
    ]);
  });
});
