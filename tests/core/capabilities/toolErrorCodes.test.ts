import fs from 'node:fs';
import path from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryAudit } from '../../../src-main/core/capabilities/audit';
import { defineTool } from '../../../src-main/core/capabilities/define';
import { createPermissionLayer, HostDispatcher } from '../../../src-main/core/capabilities/dispatcher';
import { ToolExecutor } from '../../../src-main/core/capabilities/executor';
import { MemoryRequestStore, MemoryRuleStore } from '../../../src-main/core/capabilities/permissions/memoryStores';
import { createToolRegistry } from '../../../src-main/core/capabilities/builtin';
import { toolFailureCode } from '../../../src-main/core/capabilities/toolErrorCode';
import type { ToolResult } from '../../../src-main/core/engine/ports';
import { EgressFailedError } from '../../../src-main/core/security/egress';
import { ConnectorError } from '../../../src-main/core/science/errors';
import { AppError } from '../../../src-preload/contract/errors';
import { scriptedPort } from './support';
import { tempWorkspace } from './toolSupport';

/**
 * Each common way a tool call fails carries its case (errorCode) beside the English text,
 * so a window can say it in its own language; the text the model reads is unchanged.
 */

/** A tool that throws what the test hands it. */
let toThrow: () => unknown = () => new Error('boom');
const thrower = defineTool({
  name: 'throwing_tool',
  description: 'throws',
  input: z.object({}).strict(),
  sideEffect: 'read',
  defaultPolicy: 'allow',
  resourceKeys: () => [],
  target: () => 'x',
  execute() {
    throw toThrow();
  },
});

function setup(answers: ('allow_once' | 'deny')[] = []) {
  const registry = createToolRegistry({ env: {} }).register(thrower);
  const rules = new MemoryRuleStore();
  const { policy, approvals } = createPermissionLayer({ rules, requests: new MemoryRequestStore(), port: scriptedPort(answers, 'deny') });
  const dispatcher = new HostDispatcher({ registry, policy, approvals, audit: new MemoryAudit() });
  const { workspace } = tempWorkspace();
  const executor = new ToolExecutor(dispatcher, { workspaceFor: () => workspace });
  return { rules, workspace, executor };
}

async function call(executor: ToolExecutor, name: string, args: unknown, signal = new AbortController().signal): Promise<ToolResult> {
  const [result] = await executor.executeBatch(
    [{ id: 'c1', name, rawArguments: JSON.stringify(args), arguments: args, parseError: null }],
    { sessionId: 's1', runId: 'r1', signal, emit: () => undefined },
  );
  return result!;
}

describe('the case of a failed tool call, named beside its English text', () => {
  it('a tool the run does not offer is unknown_tool', async () => {
    const r = await call(setup().executor, 'no_such_tool', {});
    expect(r).toMatchObject({ isError: true, errorCode: 'unknown_tool' });
  });

  it('arguments that do not fit the schema are invalid_arguments, and the model reads the schema problem', async () => {
    const r = await call(setup().executor, 'read_text_file', { nope: 1 });
    expect(r.errorCode).toBe('invalid_arguments');
    expect(r.content).toMatch(/^invalid arguments for read_text_file: /);
  });

  it('a path outside the workspace is outside_workspace, with the same refusal words', async () => {
    const r = await call(setup().executor, 'read_text_file', { path: '../outside/secret.txt' });
    expect(r.errorCode).toBe('outside_workspace');
    expect(r.content).toMatch(/^Refused path "\.\.\/outside\/secret\.txt": /);
    expect(r.content).toMatch(/This was refused by the app's safety rules; do not retry it\.$/);
  });

  it('a write to a protected name is protected_path', async () => {
    const r = await call(setup().executor, 'write_file', { path: '.git/config', content: 'x' });
    expect(r.errorCode).toBe('protected_path');
    expect(r.content).toMatch(/^Refused to write "\.git\/config"/);
  });

  it('a missing workspace file is not_found', async () => {
    const { executor } = setup();
    const r = await call(executor, 'read_text_file', { path: 'missing.csv' });
    expect(r.errorCode).toBe('not_found');
    expect(r.content).toBe('read_text_file failed: No such file or folder in the workspace: "missing.csv". List the folder with list_dir to see what exists.');
  });

  it('an address the egress guard refuses is network_refused', async () => {
    const { executor, rules } = setup();
    rules.addRule({ tool: 'web_fetch', target: '*', action: 'allow' });
    const r = await call(executor, 'web_fetch', { url: 'http://169.254.169.254/latest/meta-data/' });
    expect(r.errorCode).toBe('network_refused');
    expect(r.content).toMatch(/^Refused to fetch http:\/\/169\.254\.169\.254\//);
  });

  it('a call the user refuses, or a stored rule refuses, is denied (and still a denial, not an error card)', async () => {
    const asked = setup(['deny']);
    const byUser = await call(asked.executor, 'web_fetch', { url: 'https://example.org/' });
    expect(byUser).toMatchObject({ denied: true, errorCode: 'denied' });
    const ruled = setup();
    ruled.rules.addRule({ tool: 'read_text_file', target: '*', action: 'deny' });
    const byRule = await call(ruled.executor, 'read_text_file', { path: 'a.txt' });
    expect(byRule).toMatchObject({ denied: true, errorCode: 'denied' });
    expect(byRule.content).toMatch(/^denied: a stored rule refuses read_text_file on /);
  });

  it('a call stopped with the run is cancelled, whatever the tool threw', async () => {
    const { executor } = setup();
    const stop = new AbortController();
    toThrow = () => {
      stop.abort();
      return new Error('socket closed');
    };
    const r = await call(executor, 'throwing_tool', {}, stop.signal);
    expect(r.errorCode).toBe('cancelled');
    expect(r.content).toBe('throwing_tool failed: socket closed');
  });

  it('a tool that throws something unnamed is failed, with the text the model always read', async () => {
    const { executor } = setup();
    toThrow = () => new Error('the parser choked on line 3');
    const r = await call(executor, 'throwing_tool', {});
    expect(r).toMatchObject({ isError: true, errorCode: 'failed', content: 'throwing_tool failed: the parser choked on line 3' });
  });
});

describe('toolFailureCode', () => {
  const stillRunning = new AbortController().signal;
  const enoent = (() => {
    try {
      fs.readFileSync(path.join('/nonexistent-dir-for-test', 'x'));
    } catch (error) {
      return error;
    }
    return null;
  })();

  it.each([
    ['a DOMException TimeoutError (AbortSignal.timeout)', () => new DOMException('signal timed out', 'TimeoutError'), 'timed_out'],
    ['an ETIMEDOUT socket error', () => Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' }), 'timed_out'],
    ['a fetch that ran out of time', () => new EgressFailedError('https://x.org/', 'no complete answer within 20 ms', 'timeout'), 'timed_out'],
    ['an MCP call timeout wrapped in the app’s own error', () => new Error('MCP server "s" refused the call to t', { cause: new McpError(-32001, 'Request timed out') }), 'timed_out'],
    ['an AbortError', () => new DOMException('aborted', 'AbortError'), 'cancelled'],
    ['a connector request cancelled', () => new ConnectorError('uniprot', 'cancelled', 'request was cancelled.'), 'cancelled'],
    ['a file system ENOENT', () => enoent, 'not_found'],
    ['an AppError not_found', () => new AppError('not_found', 'No artifact a1.'), 'not_found'],
    ['a connector not_found', () => new ConnectorError('uniprot', 'not_found', 'no entry P0'), 'not_found'],
    ['an AppError invalid_input', () => new AppError('invalid_input', 'Give the job either script or script_path, not both.'), 'invalid_arguments'],
    ['a fetch that failed otherwise', () => new EgressFailedError('https://x.org/', 'ECONNRESET'), 'failed'],
    ['a thrown string', () => 'oops', 'failed'],
  ])('%s is %s', (_what, make, code) => {
    expect(toolFailureCode(make(), stillRunning)).toBe(code);
  });

  it('a cause chain that loops ends as failed instead of spinning', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(toolFailureCode(a, stillRunning)).toBe('failed');
  });
});
