import type { Core } from '../../core/core';
import { httpToken as storedToken } from '../../core/mcp/configEdit';
import type { CliCommand, CliIO } from '../command';
import { stripTerminalControls } from '../terminalText';
import { ResearchService } from '../mcp/researchService';
import { serveHttp, serveStdio } from '../mcp/serve';
import { createWorkbenchMcpServer } from '../mcp/workbenchServer';

/** Below the 60 s an MCP client (the SDK's default) waits for a tool call: a longer run answers "processing", then the client polls. */
const DEFAULT_WAIT_S = 50;
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

function stopSignal(): { promise: Promise<void>; dispose(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  for (const s of STOP_SIGNALS) process.once(s, resolve);
  return { promise, dispose: () => STOP_SIGNALS.forEach((s) => process.removeListener(s, resolve)) };
}

/** The HTTP token: --token, else OPENAI4S_MCP_TOKEN, else the one kept in the ledger (made on first use; Settings shows it). */
function httpToken(core: Core, given: string | undefined, env: NodeJS.ProcessEnv): string {
  const chosen = given ?? env.OPENAI4S_MCP_TOKEN;
  return chosen?.trim() ? chosen.trim() : storedToken(core.ledger.settings);
}

async function listServers(core: Core, io: CliIO, json: boolean, connect: boolean): Promise<number> {
  // --connect waits for every server to start (or fail), unlike a catalogue search.
  if (connect) await core.mcp.discover(Infinity);
  const status = core.mcp.status();
  if (json) {
    io.out(JSON.stringify(status, null, 2));
    // The report is for the program reading stdout; the person at the terminal still sees each problem.
    for (const e of status.errors) io.err(`problem: ${stripTerminalControls(e)}`);
    return status.errors.length ? 1 : 0;
  }
  for (const e of status.errors) io.err(`problem: ${e}`);
  if (!status.servers.length && status.errors.length) io.out('No usable MCP server: fix the problems above.');
  else if (!status.servers.length) io.out('No MCP servers configured. Add them in Settings → MCP servers or in mcp.json in the data root ({"mcpServers": {...}}).');
  for (const s of status.servers) {
    io.out(`${s.name}  ${s.transport}  ${s.state}  ${stripTerminalControls(s.endpoint)}${s.error ? `\n  error: ${stripTerminalControls(s.error)}` : ''}`);
    for (const line of s.skipped) io.out(`  left out: ${stripTerminalControls(line)}`);
    for (const t of s.tools ?? []) io.out(`  ${t.registeredAs ?? t.name}  ${t.policy}${t.askEveryTime ? ' (every time)' : ''}  ${t.basis}`);
  }
  return status.errors.length ? 1 : 0;
}

export const mcpCommand: CliCommand = {
  name: 'mcp',
  summary: 'Serve the workbench as an MCP research tool (stdio; --http for 127.0.0.1), or list MCP servers',
  usage:
    'openai4s mcp [--http [--port N] [--token T]] [--wait SECONDS]\n' +
    '  openai4s mcp servers [--connect] [--json]\n' +
    '  Serves research_assistant_request and research_assistant_status over stdio (what Claude Desktop starts), or with --http\n' +
    '  over Streamable HTTP on 127.0.0.1 with a bearer token (--token, OPENAI4S_MCP_TOKEN, or one kept in the data root).\n' +
    '  Approvals follow the headless policy: denied unless OPENAI4S_UNATTENDED_APPROVAL=allow.',
  options: { http: { type: 'boolean' }, port: { type: 'string' }, token: { type: 'string' }, wait: { type: 'string' }, json: { type: 'boolean' }, connect: { type: 'boolean' } },
  needsCore: true,
  async run({ core, values, positionals, io, env }) {
    const c = core!;
    if (positionals[0] === 'servers') return listServers(c, io, values.json === true, values.connect === true);
    if (positionals.length) {
      io.err(`Unknown mcp subcommand "${positionals[0]}". Use \`openai4s mcp\` to serve or \`openai4s mcp servers\` to list.`);
      return 2;
    }
    const waitS = values.wait === undefined ? Number(env.OPENAI4S_MCP_WAIT_SECONDS ?? DEFAULT_WAIT_S) : Number(values.wait);
    if (!Number.isFinite(waitS) || waitS < 0 || waitS > 3600) {
      io.err('--wait (or OPENAI4S_MCP_WAIT_SECONDS) must be a number of seconds from 0 to 3600');
      return 2;
    }
    const service = new ResearchService(c, { waitMs: waitS * 1000 });
    const stop = stopSignal();
    try {
      if (!values.http) {
        // stdout carries JSON-RPC only: anything the app would log goes to stderr.
        console.log = console.error;
        console.info = console.error;
        await serveStdio(createWorkbenchMcpServer(service), stop.promise);
        return 0;
      }
      const port = values.port === undefined ? 8765 : Number(values.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        io.err('--port must be a whole number from 0 to 65535');
        return 2;
      }
      const token = httpToken(c, values.token as string | undefined, env);
      const serving = await serveHttp(() => createWorkbenchMcpServer(service), { port, token });
      io.err(`openai4s MCP server at ${serving.url} (Authorization: Bearer <token>: the token Settings → MCP servers shows, or the --token / OPENAI4S_MCP_TOKEN given). Ctrl-C stops it.`);
      await stop.promise;
      await serving.close();
      return 0;
    } finally {
      stop.dispose();
    }
  },
};
