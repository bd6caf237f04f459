import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfigEnv } from '../../../src-main/core/config/env';
import { runEngine } from '../../../src-main/core/engine/loop';
import { Host } from '../../../src-main/core/capabilities/host';
import { openLedger, type Ledger } from '../../../src-main/core/ledger/ledger';
import { createModel } from '../../../src-main/core/llm/model';
import type { LlmMessage } from '../../../src-main/core/llm/types';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import { validAnswer } from '../../support/mockModel';
import { startScriptedModel, type ScriptedModel } from '../../support/scriptedModel';
import { LiveRuns } from '../../../src-main/core/engine/liveRuns';

// The acceptance of issue 7, end to end: a real provider wire (OpenAI-compatible SSE from the
// scripted model server), the real engine loop, the host's executor over a real ledger.
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function agentRun(script: Parameters<typeof startScriptedModel>[0], hostEnv: NodeJS.ProcessEnv) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-accept-'));
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const server: ScriptedModel = await startScriptedModel(script);
  cleanup.push(() => server.close());
  const ledger: Ledger = openLedger(path.join(dir, 'ledger.sqlite3'));
  cleanup.push(() => ledger.close());
  const session = ledger.createSession('acceptance');
  const { run } = ledger.runs.submit(session.id, 'm1', 'Fetch the page');
  ledger.runs.start(run.id, 'openai', 'scripted');
  const host = new Host({ dataDir: dir, env: hostEnv, ledger: () => ledger, workspaceFor: (id) => path.join(dir, 'workspaces', id), liveRuns: new LiveRuns() });
  const model = createModel('openai', {
    env: loadConfigEnv(dir, { OPENAI4S_OPENAI_BASE_URL: server.baseUrl, OPENAI4S_OPENAI_API_KEY: 'sk-test-acceptance' }),
    retry: { maxRetries: 0 },
  });
  const chunks: StreamChunk[] = [];
  const history: LlmMessage[] = [{ role: 'user', content: 'Fetch the instance metadata page.' }];
  const result = await runEngine(
    {
      model,
      executor: host.executor,
      kernel: { executeCell: async () => ({ ok: false, summary: 'no kernel in this test' }) },
      context: { prepare: (h) => [...h] },
      sink: { emit: (c) => chunks.push(c) },
      evidence: { missing: (ids) => [...ids] },
    },
    { sessionId: session.id, runId: run.id, system: 'test', tools: host.llmTools(), history, signal: new AbortController().signal },
  );
  const toolMessages = (server.requests[1]?.body as { messages: { role: string; content: string; tool_call_id?: string }[] } | undefined)?.messages.filter((m) => m.role === 'tool') ?? [];
  return { result, chunks, server, toolMessages, ledger, run, session };
}

describe('acceptance: refused addresses and headless denial reach the model, and the run continues', () => {
  it('with OPENAI4S_UNATTENDED_APPROVAL=allow, metadata and mapped-loopback URLs come back as refused, then the answer', async () => {
    const { result, toolMessages, chunks, server, ledger, run } = await agentRun(
      [
        {
          reply: [
            { toolCall: { id: 'call_meta', name: 'web_fetch', arguments: { url: 'http://169.254.169.254/latest/meta-data/', reason: 'instance metadata' } } },
            { toolCall: { id: 'call_mapped', name: 'web_fetch', arguments: { url: 'http://[::ffff:7f00:1]:9/' } } },
          ],
        },
        { reply: [{ toolCall: { id: 'call_final', name: 'finalize_response', arguments: validAnswer } }] },
      ],
      { OPENAI4S_UNATTENDED_APPROVAL: 'allow' },
    );
    expect(result.status).toBe('completed');
    expect(result.answer).toMatchObject({ summary: validAnswer.summary });
    expect(server.requests).toHaveLength(2);
    // The tools the provider was offered include web_fetch with its JSON Schema.
    const offered = (server.requests[0]!.body as { tools: { function: { name: string; parameters: { properties: object } } }[] }).tools;
    expect(offered.find((t) => t.function.name === 'web_fetch')?.function.parameters.properties).toHaveProperty('url');
    expect(toolMessages.map((m) => m.tool_call_id)).toEqual(['call_meta', 'call_mapped']);
    expect(toolMessages[0]!.content).toMatch(/Refused to fetch http:\/\/169\.254\.169\.254\/latest\/meta-data\/: 169\.254\.169\.254 is a link-local address/);
    expect(toolMessages[1]!.content).toMatch(/Refused to fetch http:\/\/\[::ffff:7f00:1\]:9\/: .*127\.0\.0\.1.* loopback/);
    expect(chunks.filter((c) => c.type === 'tool-output-error').map((c) => (c as { toolCallId: string }).toolCallId)).toEqual(['call_meta', 'call_mapped']);
    // Audited: one batch group, each call with its target and the approval decision.
    const [group] = ledger.actions.listByRun(run.id);
    expect(group!.events.map((e) => e.result)).toMatchObject([
      { method: 'web_fetch', target: 'http://169.254.169.254', status: 'refused', decision: { by: 'user', answer: 'allow_once' } },
      { method: 'web_fetch', target: 'http://[::ffff:7f00:1]:9', status: 'refused', decision: { by: 'user', answer: 'allow_once' } },
    ]);
  });

  it('without it, a risky call is denied, the model reads the denial, and the run still answers', async () => {
    const { result, toolMessages, chunks, ledger, session } = await agentRun(
      [
        { reply: [{ toolCall: { id: 'call_web', name: 'web_fetch', arguments: { url: 'https://www.uniprot.org/uniprotkb/P01308', reason: 'read the entry' } } }] },
        { reply: [{ toolCall: { id: 'call_final', name: 'finalize_response', arguments: validAnswer } }] },
      ],
      {},
    );
    expect(result.status).toBe('completed');
    expect(toolMessages).toHaveLength(1);
    expect(toolMessages[0]!.content).toMatch(/^denied: no one was there to approve it \(headless run\)\. Set OPENAI4S_UNATTENDED_APPROVAL=allow/);
    expect(chunks).toContainEqual({ type: 'tool-output-denied', toolCallId: 'call_web' });
    expect(chunks.find((c) => c.type === 'tool-approval-request')).toMatchObject({ toolCallId: 'call_web' });
    const requests = ledger.db.prepare('SELECT method, target, reason, status FROM permission_requests WHERE session_id = ?').all(session.id);
    expect(requests).toEqual([{ method: 'web_fetch', target: 'https://www.uniprot.org', reason: 'read the entry', status: 'denied' }]);
  });
});
