import { z } from 'zod';
import { defineTool, type Tool } from '../capabilities/define';
import type { HostDispatcher } from '../capabilities/dispatcher';

export const MCP_CALL_TOOL = 'mcp_call';

interface ToolNames {
  toolName(server: string, tool: string): Promise<string>;
}

/**
 * `host.mcp.call(server=..., tool=..., arguments=...)` from a cell. This entry only finds
 * the server's tool; the call itself goes through the dispatcher again under that tool's
 * own name, so a cell meets the same policy, approval, audit and untrusted wrapping as the
 * model's direct call (a destructive tool still asks, a denied one raises in the cell).
 */
export function mcpCallTool(names: ToolNames, dispatcher: HostDispatcher): Tool {
  return defineTool({
    name: MCP_CALL_TOOL,
    description: 'Call a tool of a configured MCP server from a cell (host.mcp.call).',
    input: z
      .object({
        server: z.string().min(1).max(64),
        tool: z.string().min(1).max(128),
        arguments: z.record(z.string(), z.unknown()).default({}),
      })
      .strict(),
    // The envelope only resolves the name; the inner dispatch applies the tool's real policy.
    sideEffect: 'read',
    defaultPolicy: 'allow',
    exposeToModel: false,
    hostMethods: ['mcp.call'],
    resourceKeys: () => [],
    target: (a) => `${a.server}/${a.tool}`,
    async execute(a, ctx) {
      const name = await names.toolName(a.server, a.tool);
      const result = await dispatcher.dispatch(name, a.arguments, {
        origin: 'cell',
        sessionId: ctx.sessionId,
        runId: ctx.runId,
        workspace: ctx.workspace,
        signal: ctx.signal,
        ...(ctx.cell ? { cellId: ctx.cell.cellId, generation: ctx.cell.generation, language: ctx.cell.language } : {}),
      });
      if (result.status !== 'ok') throw new Error(result.text);
      const output = result.output as { is_error?: boolean } | undefined;
      if (output?.is_error) throw new Error(result.text);
      return { text: result.text, ...(result.output === undefined ? {} : { output: result.output }) };
    },
  });
}
