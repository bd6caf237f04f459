import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCore } from '../../../src-main/core/core';
import type { StaticStep } from '../../../src-main/core/llm/scripted/script';
import { startScriptedModel } from '../../support/scriptedModel';

// Issue 17 acceptance: with the scripted model, a run searches skills, loads one, imports
// its sidecar in a sandboxed cell and cites the cell's evidence; the ledger names the
// skill's sha256.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-skill-run-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const lastUserText = (body: unknown): string => {
  const messages = (body as { messages: { role: string; content: unknown }[] }).messages;
  return messages
    .filter((m) => m.role === 'user' || m.role === 'tool')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');
};

const CELL = [
  'm = host.skills.sidecar("insulin-quicklook")',
  'header, seq = m.read_fasta(m.example_path())',
  'print("length", m.summarize(seq)["length"])',
].join('\n');

describe('a run that follows a skill', () => {
  it('finds, loads and uses insulin-quicklook, cites the cell, and the ledger names the skill hash', async () => {
    const steps: (StaticStep | ((body: unknown) => StaticStep))[] = [
      { reply: [{ toolCall: { name: 'find_tools', arguments: { query: 'search skills' } } }] },
      { reply: [{ toolCall: { name: 'search_skills', arguments: { query: 'insulin sequence' } } }] },
      { reply: [{ toolCall: { name: 'load_skill', arguments: { name: 'insulin-quicklook' } } }] },
      { reply: [{ text: `Using the skill's sidecar.\n\n\`\`\`python\n${CELL}\n\`\`\`\n` }] },
      (body) => {
        const evidence = /Evidence id of this cell: (ev_[a-z2-7]{16})/.exec(lastUserText(body))?.[1] ?? 'ev_missing';
        const answer = {
          summary: 'Human preproinsulin has 110 residues.',
          claims: [{ statement: 'P01308 has 110 residues.', basis: 'computed', evidence: [evidence] }],
          limitations: ['One record.'],
          next_steps: [],
          suggested_questions: [],
          artifacts: [],
          completion_bullets: ['Length computed with the insulin-quicklook skill.'],
        };
        return { reply: [{ toolCall: { name: 'finalize_response', arguments: answer } }] };
      },
    ];
    const server = await startScriptedModel(steps);
    const core = createCore({
      env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_PROVIDER: 'openai', OPENAI4S_OPENAI_BASE_URL: server.baseUrl, OPENAI4S_OPENAI_API_KEY: 'k', OPENAI4S_KERNEL_PREWARM: '0' },
    });
    try {
      const session = core.ledger.createSession('skill run');
      const run = core.runner.submit({ sessionId: session.id, mutationId: 'm1', message: 'How long is human preproinsulin?' });
      const done = await core.runner.result(run.id);
      expect(done.status, done.failureMessage ?? '').toBe('completed');
      // search_skills was offered after find_tools found it.
      const toolsOf = (i: number) => ((server.requests[i]!.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name);
      expect(toolsOf(0)).not.toContain('search_skills');
      expect(toolsOf(1)).toContain('search_skills');
      // The cell ran the sidecar in the kernel and its output reached the model.
      expect(lastUserText(server.requests[4]!.body)).toContain('length 110');
      const history = core.ledger.history(session.id);
      const answer = history.messages.flatMap((m) => m.parts).find((p) => p.type === 'data-answer') as { data: { cited: boolean; claims: { evidence: string[] }[] } } | undefined;
      expect(answer?.data.cited).toBe(true);
      expect(answer!.data.claims[0]!.evidence[0]).toMatch(/^ev_/);
      expect(core.provenance.evidence.get(session.id, answer!.data.claims[0]!.evidence[0]!)).toBeTruthy();
      // The audit names the skill's hash (load_skill and the sidecar's load).
      const sha = core.skills.load('insulin-quicklook').sha256;
      const rows = JSON.stringify(core.ledger.actions.listByRun(run.id));
      expect(rows.split(sha).length - 1).toBeGreaterThanOrEqual(2);
    } finally {
      await core.close();
      await server.close();
    }
  }, 60_000);
});
