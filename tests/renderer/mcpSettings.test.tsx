import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope, McpPolicyAction, McpView } from '../../src-preload/contract';
import { bridge } from '../../src-renderer/src/api/bridge';
import { McpServersSection } from '../../src-renderer/src/components/settings/McpServersSection';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

// Issue 22: Settings → MCP servers lists the servers of mcp.json with their tools and the
// policy in force, sets per-server and per-tool overrides, and adds a pasted block.
function view(writeOverride: McpPolicyAction | null, servers = 1): McpView {
  return {
    configFile: '/data/mcp.json',
    errors: [],
    httpToken: 'tok-123',
    servers: servers
      ? [
          {
            name: 'fs',
            transport: 'stdio',
            endpoint: 'npx -y @modelcontextprotocol/server-filesystem /data',
            skipped: [],
            state: 'ready',
            error: null,
            override: null,
            tools: [
              { server: 'fs', name: 'read_text_file', registeredAs: 'mcp_fs_read_text_file', description: '', annotations: { readOnlyHint: true }, policy: 'allow', askEveryTime: false, basis: 'read-only', basisCode: 'read_only', override: null },
              {
                server: 'fs',
                name: 'write_file',
                registeredAs: 'mcp_fs_write_file',
                description: '',
                annotations: { destructiveHint: true },
                policy: writeOverride ?? 'ask',
                askEveryTime: !writeOverride,
                basis: writeOverride ? `destructive: asks every time; overridden in Settings: ${writeOverride}` : 'destructive: asks every time',
                basisCode: 'destructive',
                override: writeOverride,
              },
            ],
          },
        ]
      : [],
  };
}

async function renderSection(answer: (route: string, input: unknown) => Envelope<unknown>) {
  const api = fakeBridgeApi(answer);
  window.openai4s = api;
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  render(
    <StoreProvider store={store}>
      <McpServersSection />
    </StoreProvider>,
  );
  await waitFor(() => expect(api.calls.some((c) => c.route === 'mcp.list')).toBe(true));
  return api;
}

afterEach(() => {
  cleanup();
  delete (window as unknown as Record<string, unknown>).openai4s;
});

describe('MCP servers in Settings', () => {
  it('shows each tool with its policy and sets a per-tool override', async () => {
    let override: McpPolicyAction | null = null;
    const api = await renderSection((route, input) => {
      if (route === 'mcp.policy.set') override = (input as { policy: McpPolicyAction | null }).policy;
      return { ok: true, data: view(override) };
    });
    await waitFor(() => expect(screen.getAllByTestId('mcp-tool')).toHaveLength(2));
    expect(screen.getByTestId('mcp-server').textContent).toContain('running');
    expect(screen.getByTestId('mcp-token').textContent).toBe('tok-123');
    const write = screen.getByRole('combobox', { name: 'Policy for write_file' }) as HTMLSelectElement;
    expect(write.value).toBe('');
    expect(write.options[0]!.textContent).toBe('default (ask, asks every time)');
    fireEvent.change(write, { target: { value: 'allow' } });
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Policy for write_file' }) as HTMLSelectElement).value).toBe('allow'));
    expect(api.calls.find((c) => c.route === 'mcp.policy.set')!.input).toEqual({ server: 'fs', tool: 'write_file', policy: 'allow' });
    fireEvent.change(screen.getByRole('combobox', { name: 'Policy for every tool of fs' }), { target: { value: 'deny' } });
    await waitFor(() => expect(api.calls.filter((c) => c.route === 'mcp.policy.set')).toHaveLength(2));
    expect(api.calls.filter((c) => c.route === 'mcp.policy.set').at(-1)!.input).toEqual({ server: 'fs', tool: null, policy: 'deny' });
  });

  it('adds a pasted block, and shows the reason when it is refused', async () => {
    let servers = 0;
    const api = await renderSection((route, input) => {
      if (route === 'mcp.add') {
        if ((input as { json: string }).json.includes('broken')) return { ok: false, error: { code: 'invalid_input', message: 'MCP server "broken": give "command"' } };
        servers = 1;
      }
      return { ok: true, data: view(null, servers) };
    });
    await waitFor(() => expect(screen.getByText('No MCP server configured.')).toBeTruthy());
    fireEvent.change(screen.getByTestId('mcp-paste'), { target: { value: '{"mcpServers": {"broken": {}}}' } });
    fireEvent.click(screen.getByTestId('mcp-add'));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/give "command"/));
    const block = '{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/data"]}}}';
    fireEvent.change(screen.getByTestId('mcp-paste'), { target: { value: block } });
    fireEvent.click(screen.getByTestId('mcp-add'));
    await waitFor(() => expect(screen.getAllByTestId('mcp-server')).toHaveLength(1));
    expect(screen.queryByRole('alert')).toBeNull();
    expect((screen.getByTestId('mcp-paste') as HTMLTextAreaElement).value).toBe('');
    expect(api.calls.filter((c) => c.route === 'mcp.add').at(-1)!.input).toEqual({ json: block });
  });
});
