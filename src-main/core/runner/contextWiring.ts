import { CompactionPolicy } from '../archive/compactionPolicy';
import { CONTEXT_WINDOW_VAR, contextWindowFor } from '../archive/contextWindow';
import type { StandingContextSource } from '../archive/standingContext';
import { tokenCounterFor } from '../archive/tokens';
import type { Host } from '../capabilities/host';
import type { ConfigEnv } from '../config/env';
import type { ContextPolicyPort } from '../engine/ports';
import type { Ledger } from '../ledger/ledger';
import type { LanguageModelPort } from '../llm/types';

export interface ContextWiring {
  readonly ledger: Ledger;
  readonly host: Pick<Host, 'archive' | 'disclose'>;
  envFor(sessionId: string): ConfigEnv;
  /** Standing context (memory, plan) asked every turn; absent: none. */
  readonly standing?: StandingContextSource;
}

/**
 * The context policy of each run (issue 19): the model's window (OPENAI4S_CONTEXT_WINDOW,
 * else the model family's, else a safe default), its tokenizer, the session's result
 * archive, and `recall` offered to the run once it archived a result.
 */
export function runContextPolicy(w: ContextWiring) {
  return (run: { sessionId: string; runId: string; model: LanguageModelPort; request: string }): ContextPolicyPort => {
    const { sessionId, runId, model } = run;
    return new CompactionPolicy({
      sessionId,
      runId,
      model,
      window: contextWindowFor(model.providerId, model.model, w.envFor(sessionId).value(CONTEXT_WINDOW_VAR)),
      counter: tokenCounterFor(model.providerId, model.model),
      archive: w.host.archive,
      ledger: w.ledger,
      request: run.request,
      ...(w.standing ? { standing: w.standing } : {}),
      onArchived: () => w.host.disclose(runId, ['recall']),
    });
  };
}
