import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { PolicyAction } from '../capabilities/define';
import type { HostDispatcher } from '../capabilities/dispatcher';
import type { ToolRegistry } from '../capabilities/registry';
import type { EvidenceStore } from '../records/evidenceStore';
import { errorMessage } from '../shared/errorMessage';
import { loadMcpConfig, type LoadedConfig, type McpConfigSources, type McpServerConfig } from './config';
import { McpConnection, type ConnectionState } from './connection';
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

export interface McpToolStatus {
  server: string;
  name: string;
  /** The name the model and the dispatcher use (`mcp_<server>_<tool>`). */
  registeredAs: string | null;
  description: string;
  annotations: McpTool['annotations'] | null;
  policy: PolicyAction;
  askEveryTime: boolean;
  basis: string;
  override: PolicyAction | null;
}

export interface McpServerStatus {
  name: string;
  source: McpServerConfig['source'];
  transport: McpServerConfig['transport'];
  /** The command line or the url (never the env values or headers: they may hold secrets). */
  endpoint: string;
  state: ConnectionState;
  error: string | null;
  tools: McpToolStatus[] | null;
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
      throw new Error(`No MCP server named "${name}" is configured${known.length ? ` (configured: ${known.join(', ')})` : ''}. Add it in Settings → MCP servers or mcp.json in the data root.`);
    }
    return found;
  }

  policy(server: string, tool: McpTool): McpToolPolicy & { override: PolicyAction | null } {
    return effectivePolicy(server, tool.name, tool.annotations, this.config().overrides);
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
   * catalogue search sees them. A server that fails is skipped (its error is in status()).
   */
  async discover(): Promise<void> {
    if (this.closed) return;
    const { servers } = this.config();
    await Promise.all(servers.map((s) => this.discoverServer(s).catch(() => undefined)));
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
  status(): { servers: McpServerStatus[]; errors: string[] } {
    const { servers, errors, overrides } = this.config();
    return {
      errors,
      servers: servers.map((s) => {
        const c = this.connections.get(s.name)?.key === canonicalJson(s) ? this.connections.get(s.name)!.connection : null;
        const tools = c?.cachedTools() ?? null;
        return {
          name: s.name,
          source: s.source,
          transport: s.transport,
          endpoint: s.transport === 'stdio' ? `${s.command} ${s.args.join(' ')}`.trim() : s.url,
          state: c?.state ?? 'stopped',
          error: c?.lastError ?? null,
          tools:
            tools?.map((t) => {
              const p = effectivePolicy(s.name, t.name, t.annotations, overrides);
              return {
                server: s.name,
                name: t.name,
                registeredAs: this.registered.get(`${s.name}/${t.name}`) ?? null,
                description: t.description ?? '',
                annotations: t.annotations ?? null,
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

  /** Starts a server now and lists its tools (Settings' "Connect", `openai4s mcp servers --connect`). */
  async connect(server: string): Promise<McpServerStatus> {
    try {
      await this.discoverServer(this.server(server));
    } catch (error) {
      // The status carries the error; a missing server name is the caller's mistake.
      if (!this.connections.has(server)) throw new Error(errorMessage(error));
    }
    return this.status().servers.find((s) => s.name === server)!;
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
