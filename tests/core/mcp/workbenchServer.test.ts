import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../../src-main/core/core';
import { startScriptedModel, type ScriptedModel } from '../../support/scriptedModel';
import type { ResearchResult } from '../../../src-main/cli/mcp/researchSchema';

// The workbench served as an MCP tool (`openai4s mcp` over stdio), driven by the SDK's
// own client, the agent played by the scripted model. The agent reads through an MCP
// server of its own (server-everything's echo), so its answer cites real evidence.
const EVERYTHING = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const KEY = 'sk-workbench-test-key-5521';

/** From the sources (tsx), or as Claude Desktop starts it: the built `bin/openai4s.cjs mcp`. */
async function startWorkbench(dataDir: string, env: Record<string, string>, built = false): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: built ? [path.resolve('bin/openai4s.cjs'), 'mcp'] : ['--import', 'tsx', path.resolve('src-main/cli/index.ts'), 'mcp'],
    // find_tools waits for server-everything here: the scripted model calls its echo tool next, whatever the machine's load.
    env: { OPENAI4S_DATA_DIR: dataDir, OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_PROVIDER: 'openai', OPENAI4S_UNATTENDED_APPROVAL: '', OPENAI4S_LLM_API_KEY: '', OPENAI4S_MCP_DISCOVER_WAIT_MS: '120000', ...env },
    stderr: 'pipe',
    cwd: path.resolve('.'),
  });
  const client = new Client({ name: 'workbench-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const structured = (r: unknown) => (r as CallToolResult).structuredContent as unknown as ResearchResult;

/** The evidence id the echo result announced (the tool message the model reads). */
function evidenceIn(body: unknown): string {
  const messages = (body as { messages: { role: string; content: unknown }[] }).messages;
  for (const m of messages) {
    const found = m.role === 'tool' && typeof m.content === 'string' ? /Evidence (ev_[a-z2-7]{16})/.exec(m.content) : null;
    if (found) return found[1]!;
  }
  throw new Error('no evidence id in the request');
}

describe('openai4s mcp: the workbench as an MCP research tool', () => {
  let dir: string;
  let model: ScriptedModel;
  let client: Client;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-mcp-server-'));
    fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
    model = await startScriptedModel([
      { reply: [{ toolCall: { name: 'find_tools', arguments: { query: 'echo' } } }] },
      { reply: [{ toolCall: { name: 'mcp_everything_echo', arguments: { message: 'insulin lowers blood glucose' } } }] },
      // A network tool asks; in server mode nobody approves, so the answer must say so.
      { reply: [{ toolCall: { name: 'web_fetch', arguments: { url: 'https://example.org/insulin' } } }] },
      (body) => ({
        reply: [
          {
            toolCall: {
              name: 'finalize_response',
              arguments: {
                summary: 'Insulin lowers blood glucose.',
                claims: [{ statement: 'Insulin lowers blood glucose.', basis: 'observed', evidence: [evidenceIn(body)], uncertainty: 'One source.' }],
                limitations: ['Only one source was read.'],
                suggested_questions: ['How is insulin secreted?'],
                completion_bullets: ['Answered with one cited source'],
              },
            },
          },
        ],
      }),
    ]);
    client = await startWorkbench(dir, { OPENAI4S_OPENAI_BASE_URL: model.baseUrl, OPENAI4S_OPENAI_API_KEY: KEY });
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await model?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists both tools with the seed annotations', async () => {
    const { tools } = await client.listTools();
    const request = tools.find((t) => t.name === 'research_assistant_request')!;
    expect(request.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true });
    expect(request.outputSchema).toBeDefined();
    expect(tools.find((t) => t.name === 'research_assistant_status')!.annotations).toMatchObject({ readOnlyHint: true });
  });

  let first: ResearchResult;
  const mutation = randomUUID();

  it('answers a request with a cited answer whose evidence resolves in the session, and says what was denied', async () => {
    const result = await client.callTool({ name: 'research_assistant_request', arguments: { mutation_id: mutation, question: 'What does insulin do?', request_kind: 'question' } });
    expect(result.isError).toBeFalsy();
    first = structured(result);
    expect(first.run).toMatchObject({ status: 'completed', failure_code: null, request_kind: 'question', processor: 'openai', generation: 1 });
    expect(first.availability).toMatchObject({ configured: true, reason: null });
    const answer = first.message!.answer!;
    expect(answer.method_version).toBe('research-cited/v1');
    expect(answer.answer).toMatchObject({ statement: 'Insulin lowers blood glucose.', basis: 'observed' });
    expect(answer.answer.evidence).toHaveLength(1);
    expect(answer.findings[0]!.evidence).toEqual(answer.answer.evidence);
    expect(answer.query_suggestions[0]!.query).toBe('How is insulin secreted?');
    expect(answer.limitations[0]).toMatch(/^Not done: web_fetch on https:\/\/example\.org.* was denied/);
    expect(answer.limitations).toContain('Only one source was read.');
    expect(first.conversation_revision).toBe(first.run!.conversation_revision);
    // Polling the run gives the same answer.
    const polled = structured(await client.callTool({ name: 'research_assistant_status', arguments: { run_id: first.run!.id } }));
    expect(polled.message!.answer).toEqual(answer);
  }, 60_000);

  it('returns the same run for the same mutation_id, without asking the model again', async () => {
    const asked = model.requests.length;
    const again = structured(await client.callTool({ name: 'research_assistant_request', arguments: { mutation_id: mutation, question: 'What does insulin do?' } }));
    expect(again.run!.id).toBe(first.run!.id);
    expect(again.run!.conversation_id).toBe(first.run!.conversation_id);
    expect(model.requests.length).toBe(asked);
  });

  it('refuses a stale expected_revision as revision_conflict', async () => {
    const stale = await client.callTool({
      name: 'research_assistant_request',
      arguments: { conversation_id: first.run!.conversation_id, mutation_id: randomUUID(), expected_revision: first.conversation_revision! - 1, question: 'And glucagon?' },
    });
    expect(stale.isError).toBe(true);
    expect((stale.content as { text: string }[])[0]!.text).toMatch(/^revision_conflict: /);
  });

  it('keeps the cited evidence in the session (read back after the server stopped)', async () => {
    await client.close();
    const core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0' } });
    try {
      const id = first.message!.answer!.answer.evidence[0]!.evidence_id;
      const record = core.provenance.evidence.get(first.run!.conversation_id, id);
      expect(record).toMatchObject({ kind: 'retrieval', envelope: { source: 'mcp', server: 'everything', tool: 'echo' } });
    } finally {
      await core.close();
    }
  });
});

describe('openai4s mcp without a model key', () => {
  it('runs from the built CLI as Claude Desktop starts it, and says the workbench has no key', async () => {
    if (!fs.existsSync(path.resolve('out/main/cli.js'))) return expect.fail('run `npm run build` first: out/main/cli.js is missing');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-mcp-built-'));
    const client = await startWorkbench(dir, { OPENAI4S_OPENAI_API_KEY: '' }, true);
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['research_assistant_request', 'research_assistant_status']);
      const result = structured(await client.callTool({ name: 'research_assistant_request', arguments: { mutation_id: randomUUID(), question: 'What does insulin do?' } }));
      expect(result.availability).toMatchObject({ configured: false, reason: 'not_configured', processor: 'openai' });
    } finally {
      await client.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('answers availability.configured = false with reason not_configured, and starts nothing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-mcp-nokey-'));
    const client = await startWorkbench(dir, { OPENAI4S_OPENAI_API_KEY: '' });
    try {
      const result = structured(await client.callTool({ name: 'research_assistant_request', arguments: { mutation_id: randomUUID(), question: 'What does insulin do?' } }));
      expect(result.availability).toMatchObject({ configured: false, reason: 'not_configured' });
      expect(result.run).toBeNull();
      expect(result.message).toBeNull();
    } finally {
      await client.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
