import { citedAnswerSchema, type CitedAnswer } from '../../../src-preload/contract/answer';
import type { EvidenceLookupPort } from './ports';

export type FinalizeCheck = { ok: true; answer: CitedAnswer } | { ok: false; errors: string[] };

/**
 * Validates a cited answer (from finalize_response or host.submit_output): the closed
 * schema first, then that every evidence id and artifact version cited anywhere in it
 * exists in this session. The errors are written for the model, which may try again.
 */
export async function checkCitedAnswer(input: unknown, evidence: EvidenceLookupPort): Promise<FinalizeCheck> {
  const parsed = citedAnswerSchema.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.slice(0, 12).map((i) => `${i.path.length ? i.path.join('.') : '(answer)'}: ${i.message}`),
    };
  }
  const answer = parsed.data;
  // Every cited id must resolve in this session, whatever the claim's basis: a basis says
  // how a statement was reached, never whether its citations may point elsewhere.
  const cited = new Set<string>();
  answer.claims.forEach((c) => c.evidence.forEach((id) => cited.add(id)));
  const missing = cited.size ? await evidence.missing([...cited]) : [];
  if (missing.length) {
    const errors = answer.claims.flatMap((c, i) => {
      const bad = c.evidence.filter((id) => missing.includes(id));
      return bad.length
        ? [`claims.${i}.evidence: no evidence ${bad.map((b) => JSON.stringify(b)).join(', ')} exists in this session; cite the ev_ ids that this session's science_search, web_fetch, cells and artifacts returned (copy them exactly)`]
        : [];
    });
    return { ok: false, errors };
  }
  const unknownArtifacts = answer.artifacts.length && evidence.missingArtifacts ? await evidence.missingArtifacts(answer.artifacts) : [];
  if (unknownArtifacts.length) {
    return {
      ok: false,
      errors: [`artifacts: no artifact version ${unknownArtifacts.map((a) => JSON.stringify(a)).join(', ')} exists in this session; list the version ids that save_artifact returned`],
    };
  }
  return { ok: true, answer: { ...answer, cited: true } };
}

/** The answer recorded when the model replies with text only, twice: nothing in it is cited. */
export function uncitedAnswer(text: string): CitedAnswer {
  return {
    summary: text.trim(),
    claims: [
      {
        statement: text.trim().slice(0, 2000),
        basis: 'generated',
        evidence: [],
        uncertainty: 'Not checked against any retrieved source.',
      },
    ],
    limitations: ['This answer was given without finalize_response: no claim in it is checked against retrieved evidence.'],
    next_steps: [],
    suggested_questions: [],
    artifacts: [],
    completion_bullets: ['Answered from the model without tools'],
    cited: false,
  };
}
