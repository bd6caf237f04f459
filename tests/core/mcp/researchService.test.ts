import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../src-main/core/core';
import { ResearchService } from '../../../src-main/cli/mcp/researchService';
import { runCli } from '../../../src-main/cli/main';
import { startScriptedModel, type ScriptedModel } from '../../support/scriptedModel';
import { validAnswer } from '../../support/mockModel';

// The research tool's service in process: a run longer than the wait is answered as in
// progress and polled; a follow-up must follow the conversation's latest message; the
// request kind frames the question and is reported back.
let dir: string;
let model: ScriptedModel;
let core: Core;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-research-'));
  model = await startScriptedModel([
    { reply: [{ toolCall: { name: 'finalize_response', arguments: validAnswer } }] },
    { reply: [{ toolCall: { name: 'finalize_response', arguments: validAnswer } }] },
  ]);
  core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_PROVIDER: 'openai', OPENAI4S_OPENAI_BASE_URL: model.baseUrl, OPENAI4S_OPENAI_API_KEY: 'sk-research-test-1234' } });
});
afterEach(async () => {
  await core.close();
  await model.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('research_assistant_request in process', () => {
  it('answers a run still in progress, then gives its cited answer to a status poll', async () => {
    const service = new ResearchService(core, { waitMs: 0 });
    const first = await service.request({ mutation_id: randomUUID(), question: 'insulin', request_kind: 'overview' });
    expect(['queued', 'processing']).toContain(first.run!.status);
    expect(first.message).toBeNull();
    await core.runner.result(first.run!.id);
    const polled = await service.status(first.run!.id);
    expect(polled.run).toMatchObject({ id: first.run!.id, status: 'completed', request_kind: 'overview' });
    expect(polled.message!.question).toBe('Give a cited overview of: insulin');
    expect(polled.message!.answer!.answer).toMatchObject({ statement: validAnswer.summary, basis: 'generated', evidence: [] });
    expect(polled.message!.answer!.findings[0]).toMatchObject({ statement: 'Insulin is a peptide hormone.', basis: 'inferred' });
  });

  it('refuses a follow-up whose parent is not the latest message, and an unknown conversation', async () => {
    const service = new ResearchService(core, { waitMs: 60_000 });
    const first = await service.request({ mutation_id: randomUUID(), question: 'insulin', request_kind: 'question' });
    const conversation = first.run!.conversation_id;
    const second = await service.request({ conversation_id: conversation, parent_message_id: first.run!.id, expected_revision: first.conversation_revision!, mutation_id: randomUUID(), question: 'and glucagon?', request_kind: 'question' });
    expect(second.run!.status).toBe('completed');
    await expect(service.request({ conversation_id: conversation, parent_message_id: first.run!.id, mutation_id: randomUUID(), question: 'stale', request_kind: 'question' })).rejects.toMatchObject({ code: 'context_changed' });
    await expect(service.request({ conversation_id: 'no-such-conversation', mutation_id: randomUUID(), question: 'x', request_kind: 'question' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(service.status('no-such-run')).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('openai4s mcp servers', () => {
  it('lists the configured servers as JSON without starting them, and names a bad entry', async () => {
    fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { files: { command: 'npx', args: ['-y', 'x'], env: { API_KEY: 'k-never-printed-1234' } }, bad: { args: [] } } }));
    let out = '';
    let err = '';
    const code = await runCli(['mcp', 'servers', '--json'], { out: (t) => (out += t), err: (t) => (err += t) }, { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0' });
    expect(code).toBe(1);
    const status = JSON.parse(out) as { servers: { name: string; state: string; endpoint: string }[]; errors: string[] };
    expect(status.servers).toEqual([expect.objectContaining({ name: 'files', state: 'stopped', endpoint: 'npx -y x' })]);
    expect(status.errors).toEqual([expect.stringMatching(/MCP server "bad": give "command"/)]);
    expect(out + err).not.toContain('k-never-printed-1234');
  });
});
