import type { Tool, ToolContext } from '../../../src-main/core/capabilities/define';

/** A tool call as the host executes it (for the model, or for a cell's host.read_file / host.write_file). */
export async function runTool(tool: Tool, args: unknown, workspace: string, origin: 'tool' | 'cell' = 'cell') {
  const parsed = tool.parse(args);
  if (!parsed.ok) throw new Error(parsed.error);
  const ctx: ToolContext = { sessionId: 's1', runId: null, workspace, signal: new AbortController().signal, origin };
  return tool.execute(parsed.args, ctx);
}

/** Runs `attempt` n times and sorts the outcomes: the caller's classification, or "refused" when it threw. */
export async function tally(n: number, attempt: () => Promise<string> | string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (let i = 0; i < n; i++) {
    let outcome: string;
    try {
      outcome = await attempt();
    } catch {
      outcome = 'refused';
    }
    counts[outcome] = (counts[outcome] ?? 0) + 1;
  }
  return counts;
}
