import type { UIMessage } from './stream';

/**
 * Retry, regenerate and edit-and-resend (issue 24) start a new run that *supersedes* an
 * earlier one: its `start` metadata names that run (`supersedes`). Nothing is deleted
 * (the ledger is append-only, and the conversation still shows the old attempt); the
 * model's context continues from just before the superseded run, like a branch.
 *
 * Pure and dependency-free: main builds each run's context with it, the renderer marks
 * the superseded messages with it (re-exported by fold.ts), so both agree.
 */

/** The run a message belongs to: an assistant message's id is its run id, the user's turn is `user-<runId>`. */
export function runOfMessage(message: Pick<UIMessage, 'id' | 'role'>): string {
  return message.role === 'user' && message.id.startsWith('user-') ? message.id.slice('user-'.length) : message.id;
}

/** The run an assistant message supersedes, from its start metadata; null when none. */
export function supersededBy(message: Pick<UIMessage, 'role' | 'metadata'>): string | null {
  if (message.role !== 'assistant' || !message.metadata || typeof message.metadata !== 'object') return null;
  const value = (message.metadata as { supersedes?: unknown }).supersedes;
  return typeof value === 'string' && value ? value : null;
}

/**
 * Which messages are off the current branch: for each run R that supersedes X, every
 * message from X's first one up to (not including) R's first one. `pending` is a run about
 * to start that supersedes another (its own messages are not in the list yet): everything
 * from that run on is off.
 */
export function offBranch(messages: readonly Pick<UIMessage, 'id' | 'role' | 'metadata'>[], pending?: string | null): boolean[] {
  const first = new Map<string, number>();
  messages.forEach((m, i) => {
    const run = runOfMessage(m);
    if (!first.has(run)) first.set(run, i);
  });
  const off = messages.map(() => false);
  const cut = (run: string, end: number) => {
    const from = first.get(run);
    if (from === undefined) return;
    for (let i = from; i < end; i++) off[i] = true;
  };
  messages.forEach((m) => {
    const superseded = supersededBy(m);
    if (superseded) cut(superseded, first.get(runOfMessage(m))!);
  });
  if (pending) cut(pending, messages.length);
  return off;
}

/** The messages of the current branch: what the model's context is built from. */
export function activeBranch<M extends Pick<UIMessage, 'id' | 'role' | 'metadata'>>(messages: readonly M[], pending?: string | null): M[] {
  const off = offBranch(messages, pending);
  return messages.filter((_, i) => !off[i]);
}
