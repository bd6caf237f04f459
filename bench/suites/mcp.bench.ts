import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore } from '../../src-main/core/core';
import type { BenchRow, BenchSuite } from '../types';

/**
 * MCP servers as capabilities (issue 22): what the first find_tools search costs when it
 * starts a server (server-everything over stdio), a warm search, and one read-only tool
 * call end to end through the dispatcher (policy, audit row, untrusted wrapping, evidence).
 */
const EVERYTHING = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const CALLS = 200;

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

const suite: BenchSuite = {
  name: 'mcp',
  async run(): Promise<BenchRow[]> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-bench-mcp-'));
    fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
    const core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0' } });
    try {
      const session = core.ledger.createSession('bench');
      const ctx = (runId: string | null) => ({ origin: 'tool' as const, sessionId: session.id, runId, workspace: dir, signal: new AbortController().signal });
      let t = performance.now();
      const cold = await core.host.dispatcher.dispatch('find_tools', { query: 'echo' }, ctx('bench-1'));
      const coldMs = performance.now() - t;
      if (!cold.text.includes('mcp_everything_echo')) throw new Error(`find_tools did not find the server's echo tool: ${cold.text.slice(0, 300)}`);
      t = performance.now();
      await core.host.dispatcher.dispatch('find_tools', { query: 'echo' }, ctx('bench-2'));
      const warmMs = performance.now() - t;
      const times: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        t = performance.now();
        const r = await core.host.dispatcher.dispatch('mcp_everything_echo', { message: `call ${i}` }, ctx(null));
        times.push(performance.now() - t);
        if (r.status !== 'ok') throw new Error(`echo call ${i} ended ${r.status}: ${r.text.slice(0, 300)}`);
      }
      return [
        { metric: 'mcp: first find_tools (starts server-everything, lists its tools)', value: Math.round(coldMs), unit: 'ms' },
        { metric: 'mcp: find_tools with the server running', value: Number(warmMs.toFixed(2)), unit: 'ms' },
        { metric: `mcp: read-only tool call through the dispatcher, p50 of ${CALLS}`, value: Number(percentile(times, 0.5).toFixed(2)), unit: 'ms' },
        { metric: `mcp: read-only tool call through the dispatcher, p95 of ${CALLS}`, value: Number(percentile(times, 0.95).toFixed(2)), unit: 'ms' },
      ];
    } finally {
      await core.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default suite;
