import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { McpClients } from '../../../src-main/core/mcp/clients';
import { MCP_CONFIG_FILE, MCP_POLICY_KEY } from '../../../src-main/core/mcp/config';
import { ToolRegistry } from '../../../src-main/core/capabilities/registry';
import type { HostDispatcher } from '../../../src-main/core/capabilities/dispatcher';
import type { SettingsRepo } from '../../../src-main/core/ledger/settingsRepo';
import type { EvidenceStore } from '../../../src-main/core/records/evidenceStore';
import { effectivePolicy, policyFromHints } from '../../../src-main/core/mcp/policy';
import { parseServerEntry } from '../../../src-main/core/mcp/config';
import { registryName } from '../../../src-main/core/mcp/mcpTools';

// Annotations are the server's claims: they pick a default, never more (the table).
describe('MCP tool annotations to policy', () => {
  it('maps each kind of hint as the issue says', () => {
    expect(policyFromHints({ readOnlyHint: true, openWorldHint: false })).toMatchObject({ sideEffect: 'read', defaultPolicy: 'allow', askEveryTime: false });
    expect(policyFromHints({ readOnlyHint: true })).toMatchObject({ sideEffect: 'read', defaultPolicy: 'allow' });
    expect(policyFromHints({ destructiveHint: true })).toMatchObject({ sideEffect: 'write', defaultPolicy: 'ask', askEveryTime: true });
    // Open world asks like network egress (a session grant holds).
    expect(policyFromHints({ readOnlyHint: false, destructiveHint: false, openWorldHint: true })).toMatchObject({ defaultPolicy: 'ask', askEveryTime: false });
    expect(policyFromHints({ readOnlyHint: true, openWorldHint: true })).toMatchObject({ sideEffect: 'network', defaultPolicy: 'ask', askEveryTime: false });
    // None: a write to an open world.
    expect(policyFromHints(undefined)).toMatchObject({ sideEffect: 'write', defaultPolicy: 'ask', askEveryTime: false, basis: expect.stringMatching(/no annotations: treated as a write to an open world/) });
    // A server claiming both read-only and destructive is read-only (destructive applies only to writes).
    expect(policyFromHints({ readOnlyHint: true, destructiveHint: true, openWorldHint: false })).toMatchObject({ defaultPolicy: 'allow' });
  });

  it('lets a tool override beat a server override, and either replace ask-every-time', () => {
    const overrides = { servers: { fs: 'deny' as const }, tools: { 'fs/write_file': 'allow' as const } };
    expect(effectivePolicy('fs', 'write_file', { destructiveHint: true }, overrides)).toMatchObject({ defaultPolicy: 'allow', askEveryTime: false, override: 'allow' });
    expect(effectivePolicy('fs', 'read_file', { readOnlyHint: true }, overrides)).toMatchObject({ defaultPolicy: 'deny', override: 'deny' });
    expect(effectivePolicy('other', 'x', { destructiveHint: true }, overrides)).toMatchObject({ defaultPolicy: 'ask', askEveryTime: true, override: null });
  });
});

describe('a tool policy read at each call', () => {
  it('follows the Settings overrides without reading mcp.json (the dispatcher reads it several times per call)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-mcp-policy-'));
    try {
      fs.writeFileSync(path.join(dir, MCP_CONFIG_FILE), JSON.stringify({ mcpServers: { fs: { command: 'unused' } } }));
      const stored = new Map<string, unknown>();
      const settings = { get: (k: string) => stored.get(k), set: (k: string, v: unknown) => void stored.set(k, v) } as unknown as SettingsRepo;
      const clients = new McpClients({ dataDir: dir, settings: () => settings, registry: new ToolRegistry(), dispatcher: {} as HostDispatcher, evidence: () => ({}) as EvidenceStore });
      const tool = { name: 'write_file', inputSchema: { type: 'object' as const }, annotations: { destructiveHint: true } };
      const reads = vi.spyOn(fs, 'readFileSync');
      try {
        expect(clients.policy('fs', tool)).toMatchObject({ defaultPolicy: 'ask', askEveryTime: true, override: null });
        stored.set(MCP_POLICY_KEY, { servers: {}, tools: { 'fs/write_file': 'allow' } });
        expect(clients.policy('fs', tool)).toMatchObject({ defaultPolicy: 'allow', askEveryTime: false, override: 'allow' });
        expect(reads.mock.calls.filter(([file]) => String(file).endsWith(MCP_CONFIG_FILE))).toEqual([]);
      } finally {
        reads.mockRestore();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('mcpServers entries and tool names', () => {
  it('reads the common shape and refuses what it cannot run, naming the entry', () => {
    expect(parseServerEntry('fs', { command: 'npx', args: ['-y', 'x'], env: { A: 'b' } })).toMatchObject({ transport: 'stdio', command: 'npx', args: ['-y', 'x'], env: { A: 'b' } });
    expect(parseServerEntry('remote', { url: 'https://example.org/mcp', headers: { Authorization: 'Bearer t' } })).toMatchObject({ transport: 'http', headers: { Authorization: 'Bearer t' } });
    expect(() => parseServerEntry('remote', { url: 'ftp://example.org' })).toThrow(/MCP server "remote": url: url must be an http\(s\) address/);
    expect(() => parseServerEntry('x', { command: 'a', extra: 1 })).toThrow(/MCP server "x": .*extra/i);
    expect(() => parseServerEntry('bad name!', { command: 'a' })).toThrow(/must be 1-64 letters/);
  });

  it('makes registry names in the registry alphabet, distinct for clashing and long pairs', () => {
    const taken = new Set<string>();
    const name = (server: string, tool: string) => {
      const n = registryName(server, tool, (x) => taken.has(x));
      taken.add(n);
      return n;
    };
    expect(name('everything', 'get-tiny-image')).toBe('mcp_everything_get_tiny_image');
    expect(name('My.Server', 'readFile')).toBe('mcp_my_server_readfile');
    const clash = name('my-server', 'readfile');
    expect(clash).toMatch(/^mcp_my_server_readfile_[0-9a-f]{8}$/);
    const long = name('s', 'x'.repeat(100));
    expect(long.length).toBeLessThanOrEqual(64);
    expect(long).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
  });
});
