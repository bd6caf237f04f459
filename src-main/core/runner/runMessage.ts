import type { ActionExecutorPort } from '../engine/ports';

/** What a run's first user turn draws on besides the message itself. */
export interface RunMessageDeps {
  executor: ActionExecutorPort;
  /** The enabled skills a message names with `@name` (the composer's picker). */
  mentionedSkills?(message: string): string[];
  /** What the user ran in the Notebook tab, told to the agent before the message. */
  userCellsNote?(sessionId: string, runId: string): string | null;
}

/**
 * The user's turn as the model reads it: the user's Notebook cells first (the agent works
 * in the same kernels), then the message, then the text of every skill it attached with
 * `@name`. Those skills are loaded before the first request through the executor, so the
 * audit records name, source and sha256 as for load_skill; one that fails to load is left out.
 */
export async function runMessage(deps: RunMessageDeps, run: { sessionId: string; runId: string; signal: AbortSignal }, message: string): Promise<string> {
  const names = deps.mentionedSkills?.(message) ?? [];
  let text = message;
  if (names.length) {
    const calls = names.map((name, i) => ({ id: `attach-${run.runId}-${i}`, name: 'load_skill', rawArguments: JSON.stringify({ name }), arguments: { name }, parseError: null }));
    const results = await deps.executor.executeBatch(calls, { sessionId: run.sessionId, runId: run.runId, signal: run.signal, emit: () => undefined });
    const attached = results.filter((r) => !r.isError).map((r) => r.content);
    if (attached.length) text = `${message}\n\n---\nSkills attached by the user (follow them):\n\n${attached.join('\n\n')}`;
  }
  const note = deps.userCellsNote?.(run.sessionId, run.runId);
  return note ? `${note}\n\n---\n\n${text}` : text;
}
