import { z } from 'zod';

/**
 * The cited answer contract (DESIGN.md): the closed schema of `finalize_response` and
 * `host.submit_output`, validated by the engine and by the host. The renderer imports
 * only the inferred types (`import type { CitedAnswer }`).
 */
export const claimBasis = z.enum(['observed', 'computed', 'inferred', 'generated']);

const text = (max: number) => z.string().trim().min(1).max(max);

export const claimSchema = z
  .object({
    statement: text(2000),
    basis: claimBasis,
    evidence: z.array(z.string().trim().min(1).max(64)).max(20).default([]),
    uncertainty: z.string().max(1000).default(''),
  })
  .strict()
  .superRefine((claim, ctx) => {
    if ((claim.basis === 'observed' || claim.basis === 'computed') && claim.evidence.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['evidence'],
        message: `a ${claim.basis} claim must cite at least one evidence id; use basis "inferred" or "generated" when nothing supports it`,
      });
    }
  });

export const citedAnswerSchema = z
  .object({
    summary: text(20_000),
    claims: z.array(claimSchema).max(50).default([]),
    limitations: z.array(text(1000)).min(1, 'give at least one limitation').max(10),
    next_steps: z.array(text(1000)).max(10).default([]),
    suggested_questions: z.array(text(500)).max(5, 'at most five suggested questions').default([]),
    artifacts: z.array(z.string().trim().min(1).max(64)).max(50).default([]),
    completion_bullets: z.array(text(300)).min(1, 'give 1 to 4 completion bullets').max(4, 'give 1 to 4 completion bullets'),
  })
  .strict();

export type ClaimBasis = z.infer<typeof claimBasis>;
export type Claim = z.infer<typeof claimSchema>;
export type CitedAnswerInput = z.input<typeof citedAnswerSchema>;

/** The answer as stored and shown: the validated fields plus how it came about. */
export type CitedAnswer = z.infer<typeof citedAnswerSchema> & {
  /** False for an answer the model gave as plain text without finalize_response. */
  cited: boolean;
};
