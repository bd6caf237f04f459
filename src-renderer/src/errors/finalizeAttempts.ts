/**
 * A `finalize_response` the engine refused and the model tried again: summarised as one
 * line ("refused 2 times for missing citations; fixed on try 3") instead of one red card
 * per attempt. Pure: reads the refusals' text, which the engine writes for the model
 * ("finalize_response was not accepted. Fix these and call it again:\n- ...").
 */

export type RefusalReason = 'uncited' | 'unknownEvidence' | 'json' | 'artifacts' | 'format';

/** Why one attempt was refused, from each of its listed errors, in a fixed order, without repeats. */
export function refusalReasons(errorText: string): RefusalReason[] {
  const lines = errorText
    .split('\n')
    .map((l) => l.replace(/^\s*-\s*/, '').trim())
    .filter((l) => l && !/^finalize_response was not accepted/.test(l));
  const found = new Set<RefusalReason>();
  for (const line of lines.length ? lines : [errorText]) {
    if (/no evidence .* exists in this session/.test(line)) found.add('unknownEvidence');
    else if (/must cite at least one evidence id/.test(line)) found.add('uncited');
    else if (/not valid JSON|JSON/.test(line)) found.add('json');
    else if (/no artifact version/.test(line)) found.add('artifacts');
    else found.add('format');
  }
  const order: RefusalReason[] = ['uncited', 'unknownEvidence', 'json', 'artifacts', 'format'];
  return order.filter((r) => found.has(r));
}

export interface FinalizeSummary {
  refused: number;
  /** Every reason over all refused attempts. */
  reasons: RefusalReason[];
  /** `fixed`: a later attempt was accepted; `failed`: the run ended without one; `retrying`: still running. */
  outcome: 'fixed' | 'failed' | 'retrying';
}

export function summarizeRefusals(errorTexts: readonly string[], accepted: boolean, live: boolean): FinalizeSummary {
  const all = new Set<RefusalReason>();
  for (const text of errorTexts) for (const r of refusalReasons(text)) all.add(r);
  const order: RefusalReason[] = ['uncited', 'unknownEvidence', 'json', 'artifacts', 'format'];
  return {
    refused: errorTexts.length,
    reasons: order.filter((r) => all.has(r)),
    outcome: accepted ? 'fixed' : live ? 'retrying' : 'failed',
  };
}
