import type { LlmMessage } from '../llm/types';

/** A run of history messages that must stay together: kept whole or summarised whole. */
export interface MessageGroup {
  start: number;
  /** Exclusive. */
  end: number;
  kind: 'tool-batch' | 'cell' | 'message';
}

/** The engine writes a cell's observation as a user message starting with this (loop.ts). */
export const CELL_RESULT_PREFIX = 'Cell result';

export const isCellResult = (m: LlmMessage | undefined): boolean => m?.role === 'user' && m.content.startsWith(CELL_RESULT_PREFIX);

/**
 * Cuts a history into its atomic groups: an assistant message with tool calls together
 * with every tool result after it (a provider refuses a call without its answer, or an
 * answer without its call), and an assistant reply together with the cell observation
 * that follows it (the code without its output, or the output without its code, misleads
 * the model). Stray tool results stay together with each other. Everything else is a
 * group of one.
 */
export function segmentHistory(history: readonly LlmMessage[]): MessageGroup[] {
  const groups: MessageGroup[] = [];
  let i = 0;
  while (i < history.length) {
    const m = history[i]!;
    let end = i + 1;
    let kind: MessageGroup['kind'] = 'message';
    if (m.role === 'assistant' && m.toolCalls?.length) {
      while (end < history.length && history[end]!.role === 'tool') end++;
      kind = 'tool-batch';
    } else if (m.role === 'assistant' && isCellResult(history[end])) {
      end++;
      kind = 'cell';
    } else if (m.role === 'tool') {
      while (end < history.length && history[end]!.role === 'tool') end++;
      kind = 'tool-batch';
    }
    groups.push({ start: i, end, kind });
    i = end;
  }
  return groups;
}

/** True when `index` is a group boundary of `history` (a cut there splits nothing). */
export function isGroupBoundary(history: readonly LlmMessage[], index: number): boolean {
  if (index <= 0 || index >= history.length) return true;
  return segmentHistory(history).some((g) => g.start === index);
}
