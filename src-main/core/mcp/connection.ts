import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema, type CallToolResult, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../shared/errorMessage';
import { registerSecrets } from '../security/secrets';
import { annotateUntrusted } from '../security/untrusted';
import { APP_VERSION } from '../config/version';
import type { McpServerState } from '../../../src-preload/contract/mcp';
import type { McpServerConfig } from './config';

/** The states Settings and `openai4s mcp servers` show (the contract's). */
export type ConnectionState = McpServerState;

/** Restarts allowed inside CRASH_WINDOW_MS before the server is left stopped with its error. */
export const MAX_RESTARTS = 3;
const CRASH_WINDOW_MS = 60_000;
const START_TIMEOUT_MS = 30_000;
const CALL_TIMEOUT_MS = 120_000;
const STDERR_TAIL = 2_000;
const SECRET_NAME = /key|token|secret|password|passwd|auth|credential/i;

/**
 * The environment of a stdio server: exactly the variables its config names, over the
 * SDK's minimal inherited set (PATH, HOME, USER, SHELL, TERM, LOGNAME). Never the app's
 * own environment, so provider keys and OPENAI4S_* settings never reach a server.
 */
export function stdioEnv(config: { env: Record<string, string> }): Record<string, string> {
  return { ...config.env };
}

/**
 * One configured server: started on the first use, its tools listed and cached, restarted
 * on the next use after it died (a call in flight fails with the reason), stopped on close.
 */
export class McpConnection {
  private client: Client | null = null;
  private starting: Promise<Client> | null = null;
  private tools: McpTool[] | null = null;
  private crashes: number[] = [];
  private stderrTail = '';
  private closing = false;
  state: ConnectionState = 'stopped';
  /** Why the server is not ready (the last crash or start failure), for Settings and the CLI. */
  lastError: string | null = null;
  /** The same reason for the model: the server's own output inside an untrusted-data block. */
  private lastErrorForModel: string | null = null;

  constructor(
    readonly config: McpServerConfig,
    private readonly onToolsChanged: () => void,
  ) {
    // Header values and key-like env values are credentials: scrubbed from anything the app writes out.
    registerSecrets(config.transport === 'http' ? Object.values(config.headers) : Object.entries(config.env).filter(([k]) => SECRET_NAME.test(k)).map(([, v]) => v));
  }

  /**
   * Records why the server is down. Its stderr says why, but it is the server's text: the
   * user sees it as it is, the model only inside an untrusted-data block.
   */
  private fail(what: string): void {
    const tail = this.stderrTail.trim().split('\n').slice(-3).join(' | ').slice(0, 500);
    this.lastError = tail ? `${what} (its last output: ${tail})` : what;
    this.lastErrorForModel = tail ? `${what}; its last output, as data:\n${annotateUntrusted(`stderr of MCP server ${this.config.name}`, tail).text}\n` : what;
  }

  private describe(): string {
    return this.config.transport === 'stdio' ? `${this.config.command} ${this.config.args.join(' ')}`.trim() : this.config.url;
  }

  private transport(): Transport {
    const c = this.config;
    if (c.transport === 'http') return new StreamableHTTPClientTransport(new URL(c.url), { requestInit: { headers: c.headers } });
    const t = new StdioClientTransport({ command: c.command, args: c.args, env: stdioEnv(c), stderr: 'pipe', ...(c.cwd ? { cwd: c.cwd } : {}) });
    // Kept for the error message when the process dies (a server prints why on stderr).
    t.stderr?.on('data', (d: Buffer) => (this.stderrTail = (this.stderrTail + d.toString('utf8')).slice(-STDERR_TAIL)));
    return t;
  }

  /** The connected client, starting (or restarting) the server if needed. */
  async connect(): Promise<Client> {
    if (this.closing) throw new Error(`MCP server "${this.config.name}" is shutting down with the app.`);
    if (this.client) return this.client;
    if (this.starting) return this.starting;
    const now = Date.now();
    this.crashes = this.crashes.filter((t) => now - t < CRASH_WINDOW_MS);
    if (this.crashes.length >= MAX_RESTARTS) {
      this.state = 'failed';
      throw new Error(
        `MCP server "${this.config.name}" crashed ${this.crashes.length} times within a minute and is not restarted again. Fix its configuration (${this.describe()}) in Settings → MCP servers or mcp.json in the data root, then try again in a minute. Last: ${this.lastErrorForModel ?? 'unknown'}`,
      );
    }
    this.state = 'starting';
    this.starting = this.start().finally(() => (this.starting = null));
    return this.starting;
  }

  private async start(): Promise<Client> {
    const client = new Client({ name: 'openai4s', version: APP_VERSION }, { capabilities: {} });
    const transport = this.transport();
    client.onclose = () => {
      // An exit we did not ask for: remembered, and the next use restarts the server.
      if (this.client === client && !this.closing) {
        this.crashes.push(Date.now());
        this.fail('the server stopped unexpectedly');
        this.state = 'crashed';
      }
      if (this.client === client) this.client = null;
    };
    try {
      await client.connect(transport, { timeout: START_TIMEOUT_MS });
    } catch (error) {
      this.state = 'failed';
      this.crashes.push(Date.now());
      this.fail(`could not start (${errorMessage(error)})`);
      await client.close().catch(() => undefined);
      throw new Error(`MCP server "${this.config.name}" could not start: check its command or url (${this.describe()}). ${this.lastErrorForModel}`);
    }
    this.client = client;
    this.state = 'ready';
    this.tools = null;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.tools = null;
      this.onToolsChanged();
    });
    return client;
  }

  /** The server's tools (listed once per start, again after a list-changed notification). */
  async listTools(): Promise<McpTool[]> {
    const client = await this.connect();
    if (this.tools) return this.tools;
    const all: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: START_TIMEOUT_MS });
      all.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor && all.length < 1000);
    this.tools = all;
    return all;
  }

  /** The tools as last listed (no start): for Settings while the server is stopped. */
  cachedTools(): McpTool[] | null {
    return this.tools;
  }

  async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const client = await this.connect();
    try {
      return (await client.callTool({ name, arguments: args }, undefined, { signal, timeout: CALL_TIMEOUT_MS })) as CallToolResult;
    } catch (error) {
      if (this.client !== client && !signal.aborted) {
        // The process died during the call: say so, and that the next call starts it again.
        throw new Error(`MCP server "${this.config.name}" stopped during the call to ${name}; it is restarted on the next call. ${this.lastErrorForModel ?? errorMessage(error)}`);
      }
      if (signal.aborted) throw error;
      // A protocol error's message is the server's words (bad arguments, its own failure): data, not instructions.
      throw new Error(`MCP server "${this.config.name}" refused the call to ${name}:\n${annotateUntrusted(`MCP server ${this.config.name}, tool ${name}`, errorMessage(error)).text}\n`);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    const client = this.client ?? (await this.starting?.catch(() => null)) ?? null;
    this.client = null;
    this.state = 'stopped';
    await client?.close().catch(() => undefined);
  }
}
