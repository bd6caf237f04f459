import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { saveScreenshot } from '../support/e2e/app';
import { e2eSuite } from '../support/e2e/suite';

// Issue 22 in the production renderer over the real core: a pasted mcpServers block
// becomes a server in mcp.json, starts, lists its tools with their policies, and a
// per-tool override is stored and applied by the dispatcher.
const EVERYTHING = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');

describe('Settings → MCP servers against the real core', () => {
  const e2e = e2eSuite();

  it('adds a pasted server, starts it, shows its tools and stores a per-tool override', async () => {
    const shell = await e2e.openShell({ locale: 'en-US', env: { OPENAI4S_KERNEL_PREWARM: '0' }, viewport: { width: 1320, height: 1000 } });
    const { page } = shell;
    await shell.open();
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const section = page.getByTestId('settings-mcp');
    await section.getByText('No MCP server configured.').waitFor();

    const block = JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } });
    await section.getByTestId('mcp-paste').fill(block);
    await section.getByTestId('mcp-add').click();
    const server = section.getByTestId('mcp-server');
    await server.getByText('stopped', { exact: true }).waitFor();
    expect(JSON.parse(fs.readFileSync(path.join(shell.dataDir, 'mcp.json'), 'utf8')).mcpServers.everything.command).toBe(process.execPath);

    await server.getByTestId('mcp-connect').click();
    await server.getByText('running', { exact: true }).waitFor({ timeout: 30_000 });
    const echo = server.locator('[data-testid="mcp-tool"][data-tool="echo"]');
    await echo.getByText('read-only', { exact: true }).waitFor();
    await echo.getByRole('combobox', { name: 'Policy for echo' }).selectOption('deny');
    await expect.poll(() => shell.core.mcp.config().overrides.tools).toEqual({ 'everything/echo': 'deny' });
    const session = shell.core.ledger.createSession('e2e');
    const refused = await shell.core.host.dispatcher.dispatch('mcp_everything_echo', { message: 'hi' }, { origin: 'tool', sessionId: session.id, runId: null, workspace: shell.dataDir, signal: new AbortController().signal });
    expect(refused.status).toBe('denied');
    await section.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'workbench-settings-mcp.png');
    expect(shell.errors).toEqual([]);
  }, 90_000);
});
