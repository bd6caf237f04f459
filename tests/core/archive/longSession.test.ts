import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, describe, expect, it } from 'vitest';
import { compactionDataSchema } from '../../../src-preload/contract/compaction';
import { SUMMARY_SYSTEM } from '../../../src-main/core/archive/handoff';
import { createCore } from '../../../src-main/core/core';
import { exportSession } from '../../../src-main/core/export/exportSession';
import type { StaticStep } from '../../../src-main/core/llm/scripted/script';
import { sessionWorkspace } from '../../../src-main/core/workspace/sessionWorkspace';
import { startScriptedModel } from '../../support/scriptedModel';

// Issue 19 acceptance, with the scripted model behind the real OpenAI wire and the real
// core (ledger, tools, sandboxed Python kernel): one run of 200+ turns reads 2 MB of tool
// results under a 24,000-token window. Every request stays under the window; after
// compaction the request carries the handoff with the current kernel generation and the
// newest artifact version; recall pages back an archived result whose sha256 matches.

const WINDOW = 24_000;
const PARTS = 20;
const READS = 200;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-long-session-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface WireMessage {
  role: string;
  content?: string | null;
  tool_calls?: { function: { name: string; arguments: string } }[];
}
interface WireBody {
  messages: WireMessage[];
  tools?: { function: { name: string } }[];
}

/** The request's size in o200k tokens: every message's text and call arguments, the tool schemas, 4 a message. */
function requestTokens(body: WireBody): number {
  let n = 0;
  for (const m of body.messages) {
    n += 4 + countTokens(typeof m.content === 'string' ? m.content : '', { disallowedSpecial: new Set() });
    for (const c of m.tool_calls ?? []) n += 4 + countTokens(c.function.name + c.function.arguments);
  }
  return n + countTokens(JSON.stringify(body.tools ?? []));
}

/** A part file of about 10.5 KB: numbered lines of a measurement table, some in Chinese. */
function partText(i: number): string {
  const lines: string[] = [];
  for (let l = 0; l < 240; l++) lines.push(`part ${i} row ${l}\tP0${(i * 151 + l) % 9973}\t${((i + 1) * (l + 3) * 0.731).toFixed(4)}\t${l % 7 === 0 ? '表达量上调' : 'baseline'}\tok`);
  return `${lines.join('\n')}\n`;
}

const answer = {
  summary: 'All parts were read; result.txt v2 holds the result.',
  claims: [{ statement: 'The parts were read in order.', basis: 'inferred', evidence: [], uncertainty: 'low' }],
  limitations: ['Scripted run.'],
  next_steps: [],
  suggested_questions: [],
  artifacts: [],
  completion_bullets: ['Read 200 parts.'],
};

describe('a long session (issue 19)', () => {
  it('keeps every request under the window, hands off the current kernel generation and artifact version, and recalls archived bytes exactly', async () => {
    let step = 0;
    let recallSha: string | null = null;
    const agent = (body: WireBody): StaticStep => {
      const k = step++;
      const call = (name: string, args: Record<string, unknown>): StaticStep => ({ reply: [{ toolCall: { name, arguments: args } }] });
      const cell = (code: string): StaticStep => ({ reply: [{ text: `\`\`\`python\n${code}\n\`\`\`\n` }] });
      if (k === 0) return cell("x = 41\nopen('result.txt', 'w').write('v1')\nprint('wrote v1')");
      if (k === 1) return call('save_artifact', { path: 'result.txt' });
      if (k < 2 + READS / 2) return call('read_text_file', { path: `data/part-${(k - 2) % PARTS}.txt` });
      if (k === 2 + READS / 2) return cell('import os\nos._exit(3)');
      if (k === 3 + READS / 2) return cell("open('result.txt', 'w').write('v2')\nprint('wrote v2')");
      if (k === 4 + READS / 2) return call('save_artifact', { path: 'result.txt' });
      if (k < 5 + READS) return call('read_text_file', { path: `data/part-${(k - 5) % PARTS}.txt` });
      // Recall the first archived result the request shows, page by page, then answer.
      const texts = body.messages.map((m) => (typeof m.content === 'string' ? m.content : ''));
      recallSha ??= /\[Archived result of read_text_file[^\n]*sha256 ([0-9a-f]{64})/.exec(texts.join('\n'))?.[1] ?? null;
      const last = texts[texts.length - 1] ?? '';
      const next = /byte_offset=(\d+)\.\n/.exec(last)?.[1];
      if (k === 5 + READS) return call('recall', { sha256: recallSha, max_bytes: 4096 });
      if (next !== undefined) return call('recall', { sha256: recallSha, byte_offset: Number(next), max_bytes: 4096 });
      return call('finalize_response', answer);
    };
    const summaries: WireBody[] = [];
    const handoff = {
      objective: 'Read every part and keep result.txt current.',
      constraints: ['Work in the session workspace.'],
      decisions: ['Read the parts in order.'],
      done: ['Read parts so far.'],
      inProgress: ['Reading the remaining parts.'],
      blocked: [],
      nextMove: 'Read the next part.',
      keyArtifacts: ['result.txt'],
      activeKernelGeneration: 'python generation 7 (made up by the model)',
    };
    const script = (body: unknown): StaticStep => {
      const b = body as WireBody;
      if (b.messages[0]?.role === 'system' && b.messages[0].content === SUMMARY_SYSTEM) {
        summaries.push(b);
        return { reply: [{ text: JSON.stringify(handoff) }] };
      }
      return agent(b);
    };
    const server = await startScriptedModel(Array.from({ length: 400 }, () => script));
    const core = createCore({
      env: {
        ...process.env,
        OPENAI4S_DATA_DIR: dir,
        OPENAI4S_PROVIDER: 'openai',
        OPENAI4S_OPENAI_BASE_URL: server.baseUrl,
        OPENAI4S_OPENAI_API_KEY: 'k',
        OPENAI4S_OPENAI_MODEL: 'gpt-4o-mini',
        OPENAI4S_CONTEXT_WINDOW: String(WINDOW),
        OPENAI4S_KERNEL_PREWARM: '0',
      },
    });
    try {
      const session = core.ledger.createSession('long session');
      const workspace = sessionWorkspace(dir, session.id);
      fs.mkdirSync(path.join(workspace, 'data'), { recursive: true });
      for (let i = 0; i < PARTS; i++) fs.writeFileSync(path.join(workspace, 'data', `part-${i}.txt`), partText(i));
      const run = core.runner.submit({ sessionId: session.id, mutationId: 'm1', message: 'Read every part file and keep result.txt current.', maxTurns: 260 });
      const done = await core.runner.result(run.id);
      expect(done.status, done.failureMessage ?? '').toBe('completed');

      // 2 MB of tool results went through the run.
      const reads = core.ledger.actions.listByRun(run.id).flatMap((g) => g.events).filter((e) => e.name === 'read_text_file' && !e.isError);
      expect(reads).toHaveLength(READS);
      const readBytes = reads.reduce((n, e) => n + Buffer.byteLength(partText(Number(/part-(\d+)/.exec(e.rawArguments)![1]))), 0);
      expect(readBytes).toBeGreaterThan(2_000_000);

      // Every request, the agent's and the summaries', stayed under the window.
      const bodies = server.requests.map((r) => r.body as WireBody);
      expect(bodies.length).toBeGreaterThan(READS);
      const sizes = bodies.map(requestTokens);
      expect(Math.max(...sizes)).toBeLessThan(WINDOW);
      expect(summaries.length).toBeGreaterThan(0);

      // Compactions are ledger rows and data-compaction parts of the run's message.
      const rows = core.ledger.archive.compactionsBySession(session.id);
      expect(rows.length).toBe(summaries.length);
      const parts = core.ledger.history(session.id).messages.flatMap((m) => m.parts).filter((p) => p.type === 'data-compaction');
      expect(parts).toHaveLength(rows.length);
      for (const p of parts) compactionDataSchema.parse((p as { data: unknown }).data);

      // The last request carries the handoff, with the kernel generation live now (the second
      // one, after the first died) and the newest version of result.txt, from the ledger.
      const gens = core.ledger.kernels.listBySession(session.id).filter((g) => g.language === 'python');
      expect(gens.map((g) => g.generation)).toEqual([1, 2]);
      const artifact = core.provenance.artifacts.list(session.id).find((a) => a.path === 'result.txt')!;
      const versions = core.provenance.artifacts.versions(artifact.id);
      expect(versions).toHaveLength(2);
      const lastAgent = bodies.filter((b) => b.messages[0]?.content !== SUMMARY_SYSTEM).at(-1)!;
      const handoffText = lastAgent.messages.find((m) => typeof m.content === 'string' && m.content.startsWith('[Earlier turns summarised'))?.content ?? '';
      expect(handoffText).toContain('Objective: Read every part and keep result.txt current.');
      expect(handoffText).toContain(`python generation 2 (id ${gens[1]!.id}), running`);
      expect(handoffText).toContain(`result.txt v2 (${versions[1]!.id}`);
      expect(handoffText).not.toContain('generation 7');
      // A request before the kernel died named generation 1.
      expect(bodies.some((b) => b.messages.some((m) => typeof m.content === 'string' && m.content.includes(`python generation 1 (id ${gens[0]!.id}), running`)))).toBe(true);

      // recall was offered only once something was archived, and its pages are the archived bytes.
      const toolsOf = (b: WireBody) => (b.tools ?? []).map((t) => t.function.name);
      expect(toolsOf(bodies[0]!)).not.toContain('recall');
      expect(toolsOf(lastAgent)).toContain('recall');
      expect(recallSha).toMatch(/^[0-9a-f]{64}$/);
      const recallIds = new Set(
        core.ledger.actions
          .listByRun(run.id)
          .flatMap((g) => g.events)
          .filter((e) => e.name === 'recall')
          .map((e) => e.toolCallId),
      );
      const pages = core.ledger.events
        .readFrom(session.id)
        .map((e) => e.chunk as { type: string; toolCallId?: string; output?: { text: string; byteStart: number } })
        .filter((c) => c.type === 'tool-output-available' && recallIds.has(c.toolCallId))
        .map((c) => c.output!);
      expect(pages.length).toBeGreaterThan(1);
      const bytes = Buffer.concat(pages.map((p) => Buffer.from(p.text, 'utf8')));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(recallSha);
      expect(bytes.toString('utf8')).toContain('表达量上调');

      // The export keeps both: the full history (every read whole in the stream) and the handoffs, plus the archived bytes.
      const out = path.join(dir, 'long.zip');
      exportSession(core, session.id, out, [], { sign: false });
      const zip = unzipSync(fs.readFileSync(out));
      const handoffs = strFromU8(zip['ledger/compactions.jsonl']!).trim().split('\n').map((l) => JSON.parse(l) as { handoff: { objective: string } });
      expect(handoffs).toHaveLength(rows.length);
      expect(handoffs[0]!.handoff.objective).toBe(handoff.objective);
      expect(createHash('sha256').update(zip[`archive/${recallSha}.txt`]!).digest('hex')).toBe(recallSha);
      const stream = strFromU8(zip['ledger/stream_events.jsonl']!);
      expect(stream).toContain('data-compaction');
      // Every read's full text is in the package: the audit keeps 8 KB of a result, the archive the rest.
      const archived = Object.entries(zip).filter(([name]) => name.startsWith('archive/')).map(([, b]) => strFromU8(b));
      for (let i = 0; i < PARTS; i++) expect(archived.some((text) => text.includes(partText(i))), `part ${i}`).toBe(true);
    } finally {
      await core.close();
      await server.close();
    }
  }, 240_000);
});
