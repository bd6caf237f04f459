import type { CitedAnswer, Claim } from '../../../src-preload/contract/answer';
import type { StoredChunk } from '../../../src-preload/contract/stream';
import { METHOD_VERSION, type ResearchAnswer, type ResearchClaim } from './researchSchema';

/**
 * The workbench's cited answer in the seed's answer shape. Evidence records never change
 * once recorded (the same content gives the same id), so every reference is revision 1.
 * The seed's bases are observed / inferred / generated: a `computed` claim (a cell's
 * result) is reported as `inferred`, since it is derived, not read from a source.
 */

const EVIDENCE_REVISION = 1;
const refs = (ids: readonly string[]) => [...new Set(ids)].slice(0, 20).map((evidence_id) => ({ evidence_id, revision: EVIDENCE_REVISION }));
const basisOf = (c: Claim): ResearchClaim['basis'] => (c.basis === 'computed' ? 'inferred' : c.basis);

function claimOf(c: Claim): ResearchClaim {
  return { statement: c.statement.slice(0, 2000), basis: basisOf(c), evidence: refs(c.evidence), uncertainty: c.uncertainty.slice(0, 1000) };
}

/** The run's cited answer, from its stored `data-answer` chunk (null when the run gave none). */
export function storedAnswer(chunks: readonly StoredChunk[]): CitedAnswer | null {
  for (let i = chunks.length - 1; i >= 0; i--) {
    const chunk = chunks[i]!.chunk as { type: string; data?: unknown };
    if (chunk.type === 'data-answer' && chunk.data) return chunk.data as CitedAnswer;
  }
  return null;
}

/** What the run could not do because a call was denied (no one approves in server mode), one line each. */
export function deniedCalls(chunks: readonly StoredChunk[]): string[] {
  const seen = new Set<string>();
  for (const { chunk } of chunks) {
    const c = chunk as { type: string; data?: { status?: string; tool?: string | null; method?: string; target?: string | null } };
    if (c.type !== 'data-host-call' || c.data?.status !== 'denied') continue;
    seen.add(`${c.data.tool ?? c.data.method ?? 'a tool'}${c.data.target ? ` on ${c.data.target}` : ''}`);
  }
  return [...seen].map((what) => `Not done: ${what} was denied (in server mode nothing is approved unless OPENAI4S_UNATTENDED_APPROVAL=allow is set for the workbench).`);
}

/** The seed's answer object for a completed run's cited answer, with the denials first among the limitations. */
export function toResearchAnswer(answer: CitedAnswer, denied: readonly string[]): ResearchAnswer {
  const cited = answer.claims.flatMap((c) => c.evidence);
  const strongest = answer.claims.some((c) => c.basis === 'observed') ? 'observed' : answer.claims.some((c) => c.basis === 'computed' || c.basis === 'inferred') ? 'inferred' : 'generated';
  const uncertainty = answer.claims.map((c) => c.uncertainty).filter(Boolean).join(' ').slice(0, 1000);
  const limitations = [...denied, ...answer.limitations].map((l) => l.slice(0, 1000)).slice(0, 10);
  return {
    answer: { statement: answer.summary.slice(0, 2000), basis: cited.length ? strongest : 'generated', evidence: refs(cited), uncertainty },
    findings: answer.claims.slice(0, 12).map(claimOf),
    // The workbench does not score sentiment by itself; a sentiment request is answered in the findings.
    sentiment: [],
    query_suggestions: answer.suggested_questions.slice(0, 5).map((query) => ({ query, excluded_terms: [], evidence: refs(cited).slice(0, 5), rationale: 'A follow-up the agent suggested after this answer.' })),
    limitations: limitations.length ? limitations : ['The agent stated no limitation.'],
    quantitative_claims: answer.claims.some((c) => c.basis === 'computed'),
    method_version: METHOD_VERSION,
  };
}
