import { modelChoice } from './settingsSlice';
import type { RetrySlice, SendOptions } from './providersTypes';
import type { Slice } from './types';

/**
 * Retry, regenerate and edit-and-resend (issue 24). Each starts a new run that supersedes
 * the old one: the old run stays in the ledger and on screen (marked as replaced), and
 * the model's context continues from just before it. The provider is the composer's
 * current choice, so a run that failed for a missing key retries on the provider just set up.
 */

export const createRetrySlice = (): Slice<RetrySlice> => (_set, get) => {
  const options = (runId: string): SendOptions => {
    const s = get();
    return { ...modelChoice(s), ...(s.delegationAllowed ? {} : { delegation: false }), supersedes: runId };
  };
  const questionOf = (runId: string): string | null =>
    get().conversation?.runs.find((r) => r.id === runId)?.message ?? null;
  return {
    async retryRun(runId) {
      const question = questionOf(runId);
      if (!question) return 'failed';
      return get().ask(question, options(runId));
    },
    async resendEdited(runId, text) {
      if (!text.trim() || !questionOf(runId)) return 'failed';
      return get().ask(text, options(runId));
    },
  };
};
