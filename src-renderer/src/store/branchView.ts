import { offBranch, runOfMessage } from '../../../src-preload/contract/fold';
import type { UIMessage } from '../../../src-preload/contract';
import { activeRun, queuedRuns } from './conversationReducer';
import type { AppState } from './types';

const cache = new WeakMap<readonly UIMessage[], boolean[]>();

/** Which messages a retry or an edit replaced (computed once per folded message list). */
function offBranchOf(messages: readonly UIMessage[]): boolean[] {
  let off = cache.get(messages);
  if (!off) {
    off = offBranch(messages);
    cache.set(messages, off);
  }
  return off;
}

export interface BranchInfo {
  /** A later attempt replaced this message (it stays on screen and in the ledger). */
  superseded: boolean;
  /** Nothing runs or waits in the session: a retry or an edit may start now. */
  idle: boolean;
  /** The newest assistant message of the current branch. */
  lastAnswer: boolean;
  runId: string;
}

/** Where a message stands for retry, regenerate and edit (a selector: primitives only, compare with useShallow). */
export function branchInfo(s: AppState, messageId: string): BranchInfo {
  const conv = s.conversation;
  const messages = conv?.fold.messages ?? [];
  const index = messages.findIndex((m) => m.id === messageId);
  const off = offBranchOf(messages);
  let lastAnswer = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === 'assistant' && !off[i]) {
      lastAnswer = i;
      break;
    }
  }
  const idle = conv !== null && !conv.fold.open && activeRun(conv) === null && queuedRuns(conv).length === 0;
  return {
    superseded: index >= 0 && off[index] === true,
    idle,
    lastAnswer: index >= 0 && index === lastAnswer,
    runId: index >= 0 ? runOfMessage(messages[index]!) : messageId,
  };
}
