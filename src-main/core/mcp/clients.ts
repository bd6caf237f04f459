import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerView, McpToolAnnotations, McpView } from '../../../src-preload/contract/mcp';
import { AppError } from '../../../src-preload/contract/errors';
import type { PolicyAction } from '../capabilities/define';
import type { HostDispatcher } from '../capabilities/dispatcher';
import type { ToolRegistry } from '../capabilities/registry';
import type { EvidenceStore } from '../records/evidenceStore';
import { loadMcpConfig, loadPolicyOverrides, mcpConfigFile, type LoadedConfig, type McpConfigSources, type McpServerConfig } from './config';
import { addServers, httpToken, removeServer, setPolicyOverride } from './configEdit';
import { McpConnection } from './connection';
import { mcpCallTool } from './mcpCallTool';
import { mcpTool, registryName } from './mcpTools';
import { effectivePolicy, type McpToolPolicy } from './policy';
import { canonicalJson } from './resultText';

export interface McpClientsOptions extends McpConfigSources {
  /** The host's registry: server tools are registered here (on demand) as they are discovered. */
  registry: ToolRegistry;
  /** The one dispatcher: a cell's host.mcp.call goes through it with the tool's own policy. */
  dispatcher: HostDispatcher;
  /** Each successful result becomes evidence of the calling session. */
  evidence: () => EvidenceStore;
}

/**
 * The configured MCP servers as capabilities. Servers start on demand (the first
 * find_tools search, the first call); their tools join the capability catalogue as
 * on-demand tools called through the dispatcher like any other; a crashed server starts
 * again on its next use; close() stops them all.
 */
export class McpClients {
  private readonly connections = new Map<string, { key: string; connection: McpConnection }>();
  /** Registered tools by `server/tool` (the registry keeps them for the life of the core). */
  private readonly registered = new Map<string, string>();
  private closed = false;

  constructor(private readonly options: McpClientsOptions) {
    options.registry.register(mcpCallTool(this, options.dispatcher));
  }

  config(): LoadedConfig {
    return loadMcpConfig(this.options);
  }

  /** The connection for a configured server; a changed config replaces (and stops) the old one. */
  private connection(server: McpServerConfig): McpConnection {
    const key = canonicalJson(server);
    const known = this.connections.get(server.name);
    if (known && known.key === key) return known.connection;
    if (known) void known.connection.close();
    const connection = new McpConnection(server, () => void this.discoverServer(server).catch(() => undefined));
    this.connections.set(server.name, { key, connection });
    return connection;
  }

  private server(name: string): McpServerConfig {
    const { servers } = this.config();
    const found = servers.find((s) => s.name === name);
    if (!found) {
      const known = servers.map((s) => s.name);
      throw new AppError('not_found', `No MCP server named "${name}" is configured${known.length ? ` (configured: ${known.join(', ')})` : ''}. Add it in Settings → MCP servers or mcp.json in the data root.`);
    }
    return found;
  }

  /** Read at each access of a tool's policy (several per call): the ledger's overrides only, never mcp.json. */
  policy(server: string, tool: McpTool): McpToolPolicy & { override: PolicyAction | null } {
    return effectivePolicy(server, tool.name, tool.annotations, loadPolicyOverrides(this.options).overrides);
  }

  private async discoverServer(server: McpServerConfig): Promise<McpTool[]> {
    const tools = await this.connection(server).listTools();
    for (const tool of tools) this.register(server.name, tool);
    return tools;
  }

  private register(server: string, tool: McpTool): string {
    const pair = `${server}/${tool.name}`;
    const existing = this.registered.get(pair);
    if (existing) return existing;
    const { registry } = this.options;
    const name = registryName(server, tool.name, (n) => registry.get(n) !== undefined);
    registry.register(
      mcpTool(name, server, tool, {
        call: (s, t, args, signal) => this.call(s, t, args, signal),
        policy: (s, t) => this.policy(s, t),
        evidence: this.options.evidence,
      }),
    );
    this.registered.set(pair, name);
    return name;
  }

  /**
   * Starts every configured server not started yet and registers its tools, so the
   * catalogue search sees them. A server that fails is skipped (its error is in status());
   * the answer names the ones that failed, for find_tools to say.
   */
  async discover(): Promise<string[]> {
    if (this.closed) return [];
    const { servers } = this.config();
    // A server taken out of mcp.json by hand stops at the next search (its tools then answer "not configured").
    for (const [name, known] of this.connections) {
      if (servers.some((s) => s.name === name)) continue;
      this.connections.delete(name);
      void known.connection.close();
    }
    // A server that could not start is not started again by every search (a hung one would hold each find_tools
    // up to the start timeout): it is retried when its entry changes, on a call of its tools, or by Settings' Connect.
    const failed = await Promise.all(servers.map((s) => (this.startFailed(s) ? s.name : this.discoverServer(s).then(() => null, () => s.name))));
    // The server's own words (its stderr) are outside content: the model gets the name and where to look.
    return failed.filter((n): n is string => n !== null).map((n) => `MCP server "${n}" could not be started, so its tools are missing; the user can see why in Settings → MCP servers.`);
  }

  private startFailed(server: McpServerConfig): boolean {
    const known = this.connections.get(server.name);
    return known !== undefined && known.key === canonicalJson(server) && known.connection.state === 'failed';
  }

  /** The registry name of a server's tool, starting the server if needed (host.mcp.call). */
  async toolName(server: string, tool: string): Promise<string> {
    const config = this.server(server);
    const tools = await this.discoverServer(config);
    if (!tools.some((t) => t.name === tool)) {
      throw new Error(`MCP server "${server}" has no tool "${tool}". Its tools: ${tools.map((t) => t.name).join(', ') || '(none)'}.`);
    }
    return this.registered.get(`${server}/${tool}`)!;
  }

  async call(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    if (this.closed) throw new Error('The app is shutting down; MCP servers are stopped.');
    return this.connection(this.server(server)).callTool(tool, args, signal);
  }

  /** Every configured server: state, last error, and its tools with the policy in force. */
  status(): { servers: McpServerView[]; errors: string[] } {
    const { servers, errors, overrides } = this.config();
    return {
      errors,
      servers: servers.map((s) => {
        const c = this.connections.get(s.name)?.key === canonicalJson(s) ? this.connections.get(s.name)!.connection : null;
        const tools = c?.cachedTools() ?? null;
        return {
          name: s.name,
          transport: s.transport,
          endpoint: s.transport === 'stdio' ? `${s.command} ${s.args.join(' ')}`.trim() : s.url,
          state: c?.state ?? 'stopped',
          error: c?.lastError ?? null,
          override: overrides.servers[s.name] ?? null,
          tools:
            tools?.map((t) => {
              const p = effectivePolicy(s.name, t.name, t.annotations, overrides);
              return {
                server: s.name,
                name: t.name,
                registeredAs: this.registered.get(`${s.name}/${t.name}`) ?? null,
                description: t.description ?? '',
                annotations: (t.annotations as McpToolAnnotations | undefined) ?? null,
                policy: p.defaultPolicy,
                askEveryTime: p.askEveryTime,
                basis: p.basis,
                override: p.override,
              };
            }) ?? null,
        };
      }),
    };
  }

  /** What Settings → MCP servers shows. */
  view(): McpView {
    return { configFile: mcpConfigFile(this.options.dataDir), ...this.status(), httpToken: httpToken(this.options.settings()) };
  }

  /** Starts a server now and lists its tools (Settings' "Connect"); a start failure is in its state and error. */
  async connect(server: string): Promise<McpView> {
    const config = this.server(server);
    await this.discoverServer(config).catch(() => undefined);
    return this.view();
  }

  add(json: string): McpView {
    addServers(this.options.dataDir, json);
    return this.view();
  }

  async remove(name: string): Promise<McpView> {
    removeServer(this.options.dataDir, name);
    const known = this.connections.get(name);
    this.connections.delete(name);
    await known?.connection.close();
    return this.view();
  }

  setPolicy(server: string, tool: string | null, action: PolicyAction | null): McpView {
    setPolicyOverride(this.options.settings(), server, tool, action);
    return this.view();
  }

  /** Running servers (diagnostics and the lifecycle test). */
  size(): number {
    return [...this.connections.values()].filter((c) => c.connection.state === 'ready' || c.connection.state === 'starting').length;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.connections.values()].map((c) => c.connection.close()));
  }
}
