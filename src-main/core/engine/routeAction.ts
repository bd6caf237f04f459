import { firstCodeFence, type CodeFence } from './fences';

/** A tool call as the engine keeps it: raw text, parsed arguments and the parse error side by side. */
export interface ToolCallRecord {
  id: string;
  name: string;
  rawArguments: string;
  arguments: unknown;
  parseError: string | null;
}

export const FINALIZE_TOOL = 'finalize_response';

export type Action =
  | { kind: 'finalize'; call: ToolCallRecord }
  | { kind: 'tool-batch'; calls: ToolCallRecord[] }
  | { kind: 'cell'; fence: CodeFence }
  | { kind: 'none' };

/**
 * The four rules of DESIGN.md, in order:
 * 1. exactly one native call and it is finalize_response -> finalize;
 * 2. any native calls -> the whole batch (the control plane wins over code in the same reply);
 * 3. else the first complete ```python or ```r fence in the text -> a cell;
 * 4. else nothing (the engine nudges; an unclosed fence is never executed).
 */
export function routeAction(content: string, toolCalls: readonly ToolCallRecord[]): Action {
  if (toolCalls.length === 1 && toolCalls[0]!.name === FINALIZE_TOOL) {
    return { kind: 'finalize', call: toolCalls[0]! };
  }
  if (toolCalls.length > 0) return { kind: 'tool-batch', calls: [...toolCalls] };
  const fence = firstCodeFence(content);
  if (fence) return { kind: 'cell', fence };
  return { kind: 'none' };
}
