import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerView, McpToolAnnotations, McpView } from '../../../src-preload/contract/mcp';
import { AppError } from '../../../src-preload/contract/errors';
import type { PolicyAction } from '../capabilities/define';
import type { HostDispatcher } from '../capabilities/dispatcher';
import type { ToolRegistry } from '../capabilities/registry';
import type { EvidenceStore } from '../records/evidenceStore';
import { loadMcpConfig, loadPolicyOverrides, mcpConfigFile, type LoadedConfig, type McpConfigSources, type McpServerConfig } from './config';
import { addServers, httpToken, removeServer, setPolicyOverride } from './configEdit';
import { displayEndpoint } from './configSecrets';
import { McpConnection } from './connection';
import { McpSessionGone } from './httpSession';
import { mcpCallTool } from './mcpCallTool';
import { mcpTool, registryName } from './mcpTools';
import { effectivePolicy, type McpToolPolicy } from './policy';
import { canonicalJson, sha256 } from './resultText';
import { McpToolCache } from './toolCache';

export interface McpClientsOptions extends McpConfigSources {
  /** The host's registry: server tools are registered here (on demand) as they are discovered. */
  registry: ToolRegistry;
  /** The one dispatcher: a cell's host.mcp.call goes through it with the tool's own policy. */
  dispatcher: HostDispatcher;
  /** Each successful result becomes evidence of the calling session. */
  evidence: () => EvidenceStore;
  /** How long a catalogue search waits for servers still starting before it answers with what is ready (ms). */
  discoverWaitMs?: number;
}

/** A search waits this long for starting servers; a slow one joins the catalogue when it is up. */
const DISCOVER_WAIT_MS = 3_000;

/** What a tool's policy is read from: a change of these between listings is a changed tool. */
const policyShape = (tool: McpTool) => canonicalJson(tool.annotations ?? null);

/**
 * The configured MCP servers as capabilities. A catalogue search (find_tools) offers each
 * server's tools from its last start at once (remembered in the data root), starts the
 * servers not running in the background and waits a few seconds for them, then answers with
 * what is ready and a note for the rest; a server's tools join the catalogue when it is up.
 * Tools are called through the dispatcher like any other, after the live list confirms the
 * tool and its annotations; a crashed server starts again on its next use; close() stops all.
 */
export class McpClients {
  private readonly connections = new Map<string, { key: string; connection: McpConnection }>();
  /** Registered tools by `server/tool` (the registry keeps them for the life of the core). */
  private readonly registered = new Map<string, string>();
  /** The current definition of each registered tool (remembered, then live), read by its policy. */
  private readonly defs = new Map<string, McpTool>();
  /** Tools whose annotations changed since they were first offered: their next call is refused once. */
  private readonly changed = new Set<string>();
  /** Starts under way in the background, by server. */
  private readonly pending = new Map<string, Promise<unknown>>();
  /** The last live list of each server and its canonical JSON (what the cache holds). */
  private readonly persisted = new Map<string, { list: McpTool[]; content: string }>();
  private readonly cache: McpToolCache;
  private closed = false;

  constructor(private readonly options: McpClientsOptions) {
    this.cache = new McpToolCache(options.dataDir);
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
    const connection = this.connection(server);
    const tools = await connection.listTools();
    // Handled once per listing (the same array comes back until the server lists again); the cache is written
    // only when the content changed, so a server re-listing the same tools in a loop writes nothing.
    const seen = this.persisted.get(server.name);
    if (seen?.list === tools) return tools;
    this.registerAll(server.name, tools);
    const content = canonicalJson(tools);
    this.persisted.set(server.name, { list: tools, content });
    if (seen?.content !== content) {
      try {
        this.cache.put(server.name, sha256(canonicalJson(server)), tools, connection.skipped);
      } catch {
        // A read-only data root: the list is not remembered across starts, the search waits for the server instead.
      }
    }
    return tools;
  }

  private registerAll(server: string, tools: McpTool[]): void {
    for (const tool of tools) {
      const pair = `${server}/${tool.name}`;
      const before = this.defs.get(pair);
      if (before && policyShape(before) !== policyShape(tool)) this.changed.add(pair);
      this.defs.set(pair, tool);
      if (!this.registered.has(pair)) this.register(server, pair);
    }
  }

  private register(server: string, pair: string): void {
    const { registry } = this.options;
    const def = () => this.defs.get(pair)!;
    const name = registryName(server, def().name, (n) => registry.get(n) !== undefined);
    registry.register(
      mcpTool(name, server, def, {
        call: (s, t, args, signal) => this.call(s, t, args, signal),
        policy: (s, t) => this.policy(s, t),
        evidence: this.options.evidence,
      }),
    );
    this.registered.set(pair, name);
  }

  /**
   * Answers a catalogue search without waiting on every server: the tools remembered from each
   * server's last start are offered at once, servers not running start in the background, and
   * the search waits up to `discoverWaitMs` for them. The notes say which servers failed and
   * which are still starting (their tools join the catalogue when they are up).
   */
  async discover(waitMs = this.options.discoverWaitMs ?? DISCOVER_WAIT_MS): Promise<string[]> {
    if (this.closed) return [];
    const { servers } = this.config();
    // A server taken out of mcp.json by hand stops at the next search (its tools then answer "not configured").
    for (const [name, known] of this.connections) {
      if (servers.some((s) => s.name === name)) continue;
      this.connections.delete(name);
      void known.connection.close();
    }
    const starts: Promise<unknown>[] = [];
    const remembered = new Set<string>();
    for (const s of servers) {
      // A server that could not start is not started again by every search (a hung one would hold each find_tools
      // up to the start timeout): it is retried when its entry changes, on a call of its tools, or by Settings' Connect.
      if (this.startFailed(s)) continue;
      if (!this.connection(s).cachedTools()) {
        const cached = this.cache.get(s.name, sha256(canonicalJson(s)));
        if (cached) {
          this.registerAll(s.name, cached.tools);
          remembered.add(s.name);
        }
      }
      starts.push(this.startInBackground(s));
    }
    await settledWithin(starts, waitMs);
    // The server's own words (its stderr) are outside content: the model gets the name and where to look.
    return servers.flatMap((s) => {
      const connection = this.connection(s);
      if (connection.state === 'failed') {
        const what = connection.listingTimedOut ? 'did not list its tools in time' : 'could not be started';
        return [`MCP server "${s.name}" ${what}, so its tools are missing; the user can see why in Settings → MCP servers.`];
      }
      if (connection.state === 'starting') {
        return [
          remembered.has(s.name)
            ? `MCP server "${s.name}" is still starting; its tools from its last start are listed, and calling one waits for it.`
            : `MCP server "${s.name}" is still starting; search again in a moment for its tools.`,
        ];
      }
      const skipped = connection.skipped.length;
      return skipped ? [`MCP server "${s.name}": ${skipped} of its tools are left out (Settings → MCP servers says why).`] : [];
    });
  }

  /** Starts a server and lists its tools, once at a time; failures are in its state. */
  private startInBackground(server: McpServerConfig): Promise<unknown> {
    let start = this.pending.get(server.name);
    if (!start) {
      start = this.discoverServer(server)
        .catch(() => undefined)
        .finally(() => this.pending.delete(server.name));
      this.pending.set(server.name, start);
    }
    return start;
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

  /**
   * Calls a tool after the server's live list confirms it: a tool offered from the remembered
   * list may be gone, or its annotations (and so its policy) changed; then nothing is called
   * and the error says so, and the next call is decided under the live definition.
   */
  async call(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    try {
      return await this.callOnce(server, tool, args, signal);
    } catch (error) {
      // A remote server that restarted forgot the session and did not run the call: once more, on a new session and its live list.
      if (!(error instanceof McpSessionGone)) throw error;
      return this.callOnce(server, tool, args, signal);
    }
  }

  private async callOnce(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    if (this.closed) throw new Error('The app is shutting down; MCP servers are stopped.');
    const config = this.server(server);
    const live = await this.discoverServer(config);
    const current = live.find((t) => t.name === tool);
    if (!current) {
      throw new Error(`MCP server "${server}" no longer offers the tool "${tool}" (its tools now: ${live.map((t) => t.name).slice(0, 30).join(', ') || 'none'}); search find_tools again.`);
    }
    if (this.changed.delete(`${server}/${tool}`)) {
      const p = this.policy(server, current);
      throw new Error(`MCP server "${server}" changed the annotations of "${tool}" since it was listed, so nothing was called; its policy is now "${p.basis}". Call it again to go ahead under that policy.`);
    }
    return this.connection(config).callTool(tool, args, signal);
  }

  /** Every configured server: state, last error, and its tools with the policy in force. */
  status(): { servers: McpServerView[]; errors: string[] } {
    const { servers, errors, overrides } = this.config();
    return {
      errors,
      servers: servers.map((s) => {
        const c = this.connections.get(s.name)?.key === canonicalJson(s) ? this.connections.get(s.name)!.connection : null;
        const live = c?.cachedTools() ?? null;
        const remembered = live ? null : this.cache.get(s.name, sha256(canonicalJson(s)));
        const tools = live ?? remembered?.tools ?? null;
        return {
          name: s.name,
          transport: s.transport,
          endpoint: displayEndpoint(s),
          state: c?.state ?? 'stopped',
          error: c?.lastError ?? null,
          skipped: live ? c!.skipped : (remembered?.skipped ?? []),
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
                basisCode: p.basisCode,
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

/** Resolves when every promise settled or after `ms` (Infinity: no limit), whichever is first (the timer never holds the process). */
function settledWithin(promises: Promise<unknown>[], ms: number): Promise<void> {
  if (!promises.length) return Promise.resolve();
  if (!Number.isFinite(ms)) return Promise.allSettled(promises).then(() => undefined);
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref?.();
    void Promise.allSettled(promises).then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
