import { z } from 'zod';
import { defineTool, type Tool } from '../define';
import type { ToolRegistry } from '../registry';

export const FIND_TOOLS = 'find_tools';

/**
 * The capability catalogue's entry point. Tools marked `onDemand` are not in the first
 * request; this one lists those matching the query with their descriptions and offers
 * them to the model for the rest of the run (`disclose`), so the first request stays
 * small however many capabilities are installed.
 */
export function findToolsTool(registry: ToolRegistry, disclose: (runId: string, names: string[]) => void, refresh?: () => Promise<string[]>): Tool {
  return defineTool({
    name: FIND_TOOLS,
    description: 'Search the catalogue of further tools (skills, environments, compute, literature, MCP servers, ...) by a few words; the tools found become callable for the rest of this run.',
    input: z.object({ query: z.string().max(200).describe('Words naming what you need, e.g. "load skill" or "submit job". Empty lists all.') }).strict(),
    sideEffect: 'read',
    defaultPolicy: 'allow',
    resourceKeys: () => [],
    target: (a) => a.query,
    async execute(a, ctx) {
      // Capabilities found at run time (MCP servers' tools) join the catalogue before it is searched.
      const notes = (await refresh?.()) ?? [];
      const found = registry.searchCatalogue(a.query);
      if (ctx.runId && found.length) disclose(ctx.runId, found.map((t) => t.name));
      const listed = found.length
        ? `Now callable:\n${found.map((t) => `- ${t.name}: ${t.description}`).join('\n')}`
        : `No tool in the catalogue matches "${a.query}". Call find_tools with an empty query to list them all.`;
      const text = notes.length ? `${listed}\n${notes.join('\n')}` : listed;
      return { text, output: { query: a.query, tools: found.map((t) => t.name) } };
    },
  });
}
