import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, PaginatedResultSchema, ToolListChangedNotificationSchema, type CallToolResult, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { errorMessage } from '../shared/errorMessage';
import { registerSecrets, scrubSecrets } from '../security/secrets';
import { annotateUntrusted } from '../security/untrusted';
import { APP_VERSION } from '../config/version';
import type { McpServerState } from '../../../src-preload/contract/mcp';
import type { McpServerConfig } from './config';
import { boundTools, depthOf, MCP_TOOL_LIMITS, parseListedTools } from './toolLimits';
import { installLineBuffer } from './lineBuffer';
import { boundedFetch, isTooLarge, MCP_MESSAGE_LIMIT } from './boundedFetch';
import { httpLoss, McpSessionGone } from './httpSession';
import { configSecrets, publicEndpoint } from './configSecrets';
import { DEFAULT_LIST_TIMEOUT_MS, listTimeoutProblem, startProblem } from './startProblem';

/** The states Settings and `openai4s mcp servers` show (the contract's). */
export type ConnectionState = McpServerState;

/** Restarts allowed inside CRASH_WINDOW_MS before the server is left stopped with its error. */
export const MAX_RESTARTS = 3;
const CRASH_WINDOW_MS = 60_000;
const CALL_TIMEOUT_MS = 120_000;
const STDERR_TAIL = 2_000;
/** A list-changed notification is acted on at most this often. */
const RELIST_MS = 1_000;
class ResultTooDeep extends Error {}

/** A tools/list page with its entries unchecked (see listFrom). */
const LIST_PAGE = PaginatedResultSchema.extend({ tools: z.array(z.unknown()) });

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
  /** Tools of the last listing left out by the limits (toolLimits.ts), one line each. */
  skipped: string[] = [];
  /** The pending re-listing after a list-changed notification. */
  private relist: NodeJS.Timeout | null = null;
  /** The client of a start in progress, closed if the app quits before it connects. */
  private startingClient: Client | null = null;
  private crashes: number[] = [];
  private stderrTail = '';
  /** Set when the server sent a message over the read cap (the transport then closes). */
  private overflow: string | null = null;
  private closing = false;
  state: ConnectionState = 'stopped';
  /** Why the server is not ready (the last crash or start failure), for Settings and the CLI. */
  lastError: string | null = null;
  /** The same reason for the model: the server's own output inside an untrusted-data block. */
  private lastErrorForModel: string | null = null;
  /** The server is up but its last tools/list did not answer in time (state "failed" until a listing answers). */
  private listTimedOut = false;

  constructor(
    readonly config: McpServerConfig,
    private readonly onToolsChanged: () => void,
  ) {
    // Header values, key-like env values, and keys in the url or on the command line: scrubbed from anything the app writes out.
    registerSecrets(configSecrets(config));
  }

  /**
   * Records why the server is down. Its stderr says why, but it is the server's text: the
   * user sees it as it is, the model only inside an untrusted-data block.
   */
  private fail(failure: string): void {
    // An error may quote the url or command line (a fetch error does), and a server may print its key on stderr.
    const secrets = configSecrets(this.config);
    const what = scrubSecrets(failure, secrets);
    const tail = scrubSecrets(this.stderrTail.trim().split('\n').slice(-3).join(' | ').slice(0, 500), secrets);
    this.lastError = tail ? `${what} (its last output: ${tail})` : what;
    this.lastErrorForModel = tail ? `${what}; its last output, as data:\n${annotateUntrusted(`stderr of MCP server ${this.config.name}`, tail).text}\n` : what;
  }

  /** The wait for the handshake and each page of the tool list: the entry's `timeout`, else 30 s. */
  private get startTimeoutMs(): number {
    return this.config.timeout ?? DEFAULT_LIST_TIMEOUT_MS;
  }

  /** Whether the server is failed because its tool listing timed out (it is connected, and a listing may yet answer). */
  get listingTimedOut(): boolean {
    return this.listTimedOut;
  }

  /** What messages (to the model, the ledger) name the server by: no arguments, no url query (see configSecrets.ts). */
  private describe(): string {
    return publicEndpoint(this.config);
  }

  private transport(): Transport {
    const c = this.config;
    // Answers are read under the same message cap as stdio's (boundedFetch.ts).
    if (c.transport === 'http') return new StreamableHTTPClientTransport(new URL(c.url), { requestInit: { headers: c.headers }, fetch: boundedFetch() });
    const t = new StdioClientTransport({ command: c.command, args: c.args, env: stdioEnv(c), stderr: 'pipe', ...(c.cwd ? { cwd: c.cwd } : {}) });
    // Linear reading of the server's output (the SDK's buffer is quadratic in a long line); same size cap.
    installLineBuffer(t);
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
    client.onerror = (error) => {
      // The stdio buffer's cap (the SDK closes the transport itself) or the HTTP answers' (boundedFetch).
      const text = errorMessage(error);
      if (!/ReadBuffer exceeded maximum size/.test(text) && !isTooLarge(text)) return;
      this.overflow = `it sent a message over the ${MCP_MESSAGE_LIMIT / 1024 / 1024} MiB the app reads, so the connection was closed (ask the tool for less)`;
      // Over HTTP an event stream that broke leaves its request waiting out the call timeout: closing fails it now.
      if (this.config.transport === 'http') void client.close().catch(() => undefined);
    };
    client.onclose = () => {
      // An exit we did not ask for: remembered, and the next use restarts the server.
      if (this.client === client && !this.closing) {
        this.crashes.push(Date.now());
        this.fail(this.overflow ?? 'the server stopped unexpectedly');
        this.overflow = null;
        this.state = 'crashed';
      }
      if (this.client === client) {
        this.client = null;
        this.listTimedOut = false;
      }
    };
    this.startingClient = client;
    try {
      await client.connect(transport, { timeout: this.startTimeoutMs });
      if (this.closing) throw new Error('the app is shutting down');
    } catch (error) {
      this.state = 'failed';
      this.crashes.push(Date.now());
      this.fail(`could not start: ${startProblem(this.config, error, this.startTimeoutMs)}`);
      await client.close().catch(() => undefined);
      throw new Error(`MCP server "${this.config.name}" (Settings → MCP servers, or mcp.json in the data root) ${this.lastErrorForModel}`);
    } finally {
      this.startingClient = null;
    }
    this.client = client;
    this.state = 'ready';
    this.tools = null;
    this.listTimedOut = false;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.tools = null;
      // Coalesced: a server that sends the notification in a loop costs one listing a second, not one each.
      if (this.relist) return;
      this.relist = setTimeout(() => {
        this.relist = null;
        if (this.client === client) this.onToolsChanged();
      }, RELIST_MS);
      this.relist.unref();
    });
    return client;
  }

  /**
   * The server's tools (listed once per start, again after a list-changed notification),
   * within the limits of toolLimits.ts; what was left out is in `skipped`. Listed with a
   * plain request rather than the SDK's listTools, which compiles every tool's output schema
   * (a server's text) into a validator the app never uses.
   */
  async listTools(): Promise<McpTool[]> {
    for (let attempt = 0; ; attempt++) {
      const client = await this.connect();
      if (this.tools) return this.tools;
      try {
        return await this.listFrom(client);
      } catch (error) {
        if (error instanceof McpError && error.code === ErrorCode.RequestTimeout && this.client === client) {
          // Up but listing nothing: "ready" with no tools said nothing. Failed, so a search does not wait on it again,
          // until a listing answers (Connect, or a call of its tools, lists again on this connection).
          const why = listTimeoutProblem(this.config.timeout);
          this.listTimedOut = true;
          this.state = 'failed';
          this.lastError = why;
          this.lastErrorForModel = why;
          throw new Error(`MCP server "${this.config.name}" (Settings → MCP servers, or mcp.json in the data root): ${why}.`, { cause: error });
        }
        const loss = this.config.transport === 'http' ? httpLoss(error) : null;
        if (!loss) throw error;
        await this.drop(client, loss.kind === 'session_gone' ? null : `the connection was lost (${loss.why})`);
        // A listing changes nothing on the server: after a forgotten session it is asked again once, on a new one.
        if (loss.kind === 'session_gone' && attempt === 0) continue;
        throw new Error(`MCP server "${this.config.name}" could not be reached to list its tools (${loss.kind === 'unreachable' ? loss.why : 'its session was gone twice'}); check that it is running at ${this.describe()}.`, { cause: error });
      }
    }
  }

  private async listFrom(client: Client): Promise<McpTool[]> {
    const listed: unknown[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      // Each entry is checked on its own below (parseListedTools), so one bad tool does not lose the others.
      const page = await client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, LIST_PAGE, { timeout: this.startTimeoutMs });
      listed.push(...page.tools);
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < MCP_TOOL_LIMITS.maxPages && listed.length <= 4 * MCP_TOOL_LIMITS.maxTools);
    const valid = parseListedTools(this.config.name, listed);
    const bounded = boundTools(this.config.name, valid.tools, cursor !== undefined);
    this.tools = bounded.tools;
    this.skipped = [...valid.skipped, ...bounded.skipped];
    if (this.listTimedOut && this.client === client) {
      // The listing answered this time: the timeout's reason no longer holds.
      this.listTimedOut = false;
      this.state = 'ready';
      this.lastError = null;
      this.lastErrorForModel = null;
    }
    return bounded.tools;
  }

  /** The tools as last listed (no start): for Settings while the server is stopped. */
  cachedTools(): McpTool[] | null {
    return this.tools;
  }

  async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const client = await this.connect();
    try {
      const result = (await client.callTool({ name, arguments: args }, undefined, { signal, timeout: this.config.timeout ?? CALL_TIMEOUT_MS })) as CallToolResult;
      if (depthOf(result, MCP_TOOL_LIMITS.maxResultDepth) > MCP_TOOL_LIMITS.maxResultDepth) {
        throw new ResultTooDeep(`MCP server "${this.config.name}" answered the call to ${name} with content nested more than ${MCP_TOOL_LIMITS.maxResultDepth} levels deep, which the app does not read; ask the tool for less.`);
      }
      return result;
    } catch (error) {
      if (error instanceof ResultTooDeep) throw error;
      if (this.client !== client && !signal.aborted) {
        // The process died during the call: say so, and that the next call starts it again.
        throw new Error(`MCP server "${this.config.name}" stopped during the call to ${name}; it is restarted on the next call. ${this.lastErrorForModel ?? errorMessage(error)}`);
      }
      if (signal.aborted) throw error;
      const loss = this.config.transport === 'http' ? httpLoss(error) : null;
      if (loss) {
        // The HTTP client stays "connected" to a session the server forgot (or to nothing): dropped, so the next use starts afresh.
        await this.drop(client, loss.kind === 'session_gone' ? null : `the connection was lost (${loss.why})`);
        if (loss.kind === 'session_gone') throw new McpSessionGone(this.config.name, name);
        throw new Error(`MCP server "${this.config.name}" could not be reached during the call to ${name} (${loss.why}), so whether it ran there is unknown; the app connects again on the next call. If that fails too, check that the server is running at ${this.describe()}.`, { cause: error });
      }
      if (isTooLarge(errorMessage(error))) {
        throw new Error(`MCP server "${this.config.name}" answered the call to ${name} with more than ${MCP_MESSAGE_LIMIT.toLocaleString('en-US')} bytes, more than the app reads in one message; ask the tool for less.`);
      }
      // A protocol error's message is the server's words (bad arguments, its own failure): data, not instructions.
      // The SDK's error rides along as the cause, so its case (a timeout) is still named for the window.
      throw new Error(`MCP server "${this.config.name}" refused the call to ${name}:\n${annotateUntrusted(`MCP server ${this.config.name}, tool ${name}`, errorMessage(error)).text}\n`, { cause: error });
    }
  }

  /** Forgets a client whose connection is lost without counting a crash; `why` is shown until the next start. */
  private async drop(client: Client, why: string | null): Promise<void> {
    if (this.client !== client) return;
    this.client = null;
    this.tools = null;
    this.listTimedOut = false;
    this.state = why ? 'crashed' : 'stopped';
    this.lastError = why;
    this.lastErrorForModel = why;
    await client.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.relist) clearTimeout(this.relist);
    // A start still waiting for the server (a hung one waits up to the start timeout) is ended now, not waited for.
    await this.startingClient?.close().catch(() => undefined);
    const client = this.client ?? (await this.starting?.catch(() => null)) ?? null;
    this.client = null;
    this.state = 'stopped';
    await client?.close().catch(() => undefined);
  }
}
