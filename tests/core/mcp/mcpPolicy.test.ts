import { describe, expect, it } from 'vitest';
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

describe('mcpServers entries and tool names', () => {
  it('reads the common shape and refuses what it cannot run, naming the entry', () => {
    expect(parseServerEntry('fs', { command: 'npx', args: ['-y', 'x'], env: { A: 'b' } }, 'file')).toMatchObject({ transport: 'stdio', command: 'npx', args: ['-y', 'x'], env: { A: 'b' } });
    expect(parseServerEntry('remote', { url: 'https://example.org/mcp', headers: { Authorization: 'Bearer t' } }, 'file')).toMatchObject({ transport: 'http', headers: { Authorization: 'Bearer t' } });
    expect(() => parseServerEntry('remote', { url: 'ftp://example.org' }, 'file')).toThrow(/MCP server "remote": url: url must be an http\(s\) address/);
    expect(() => parseServerEntry('x', { command: 'a', extra: 1 }, 'file')).toThrow(/MCP server "x": .*extra/i);
    expect(() => parseServerEntry('bad name!', { command: 'a' }, 'file')).toThrow(/must be 1-64 letters/);
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
