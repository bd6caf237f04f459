import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { writeAtomically } from './configEdit';
import { boundTools } from './toolLimits';

/**
 * Each server's tool list from its last start, kept in the data root, so the catalogue can
 * offer a server's tools before the server is up again (a search never waits for every
 * server to start). An entry holds for the config it was listed under (the key is a hash
 * of the whole entry); a changed entry's list is not used. The file is the app's own, but
 * it is read back through the same limits as a live list.
 */

export const MCP_TOOL_CACHE_FILE = 'mcp-tools.json';

const entrySchema = z.object({
  key: z.string(),
  listedAt: z.string(),
  tools: z.array(z.object({ name: z.string(), inputSchema: z.object({ type: z.literal('object') }).passthrough() }).passthrough()),
  skipped: z.array(z.string()).default([]),
});
export type CachedTools = z.output<typeof entrySchema>;

export class McpToolCache {
  constructor(private readonly dataDir: string) {}

  private file(): string {
    return path.join(this.dataDir, MCP_TOOL_CACHE_FILE);
  }

  private read(): Record<string, unknown> {
    try {
      const raw = JSON.parse(fs.readFileSync(this.file(), 'utf8')) as unknown;
      return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    } catch {
      // Missing or damaged: there is simply no remembered list (the next start writes one).
      return {};
    }
  }

  /** The list remembered for this server under this config, or null. */
  get(server: string, key: string): { tools: McpTool[]; skipped: string[]; listedAt: string } | null {
    const parsed = entrySchema.safeParse(this.read()[server]);
    if (!parsed.success || parsed.data.key !== key) return null;
    const bounded = boundTools(server, parsed.data.tools as McpTool[]);
    return { tools: bounded.tools, skipped: [...parsed.data.skipped, ...bounded.skipped], listedAt: parsed.data.listedAt };
  }

  put(server: string, key: string, tools: McpTool[], skipped: string[]): void {
    const all = this.read();
    all[server] = { key, listedAt: new Date().toISOString(), tools, skipped } satisfies CachedTools;
    writeAtomically(this.file(), all);
  }

  /** Forgets servers no longer configured. */
  keepOnly(servers: string[]): void {
    const all = this.read();
    const gone = Object.keys(all).filter((name) => !servers.includes(name));
    if (!gone.length) return;
    for (const name of gone) delete all[name];
    writeAtomically(this.file(), all);
  }
}
