import { z } from 'zod';
import { failureCodeSchema, runStatusSchema } from '../../../src-preload/contract/sessions';

/**
 * The workbench's MCP research tool, shaped after seeds/research-assistant-request.txt:
 * a cited research request with idempotent `mutation_id`, `expected_revision`, the
 * seed's run statuses and failure codes, and its annotations. Where the seed names its
 * vendor (processor "Google Gemini", a 24 h retention, uuid-only ids, a workspace) the
 * workbench says what is true of it instead: the provider that ran, local retention
 * (null: kept in the local ledger until the user deletes the session), its own ids.
 */

export const REQUEST_TOOL = 'research_assistant_request';
export const STATUS_TOOL = 'research_assistant_status';
export const METHOD_VERSION = 'research-cited/v1';

/** The seed's annotations: not read-only, not destructive, idempotent on mutation_id, open world. */
export const REQUEST_ANNOTATIONS = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;
export const STATUS_ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export const REQUEST_KINDS = ['question', 'overview', 'themes', 'audiences', 'sentiment', 'query_suggestions'] as const;

const id = z.string().min(1).max(200);
const revision = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const requestInput = {
  conversation_id: id.optional().describe('The workbench session to continue; absent: a new session.'),
  mutation_id: id.describe('Idempotency key: the same id returns the same run and never starts a second one.'),
  expected_revision: revision.optional().describe('The conversation revision you last saw; a stale one is refused as revision_conflict.'),
  parent_message_id: id.nullable().optional().describe('The message this follows (a run id of the conversation); null or absent: the latest.'),
  question: z.string().trim().min(1).max(2000),
  request_kind: z.enum(REQUEST_KINDS).default('question'),
};

export const statusInput = {
  run_id: id.describe('The run id a research_assistant_request returned.'),
};

const evidenceRef = z.object({ evidence_id: z.string(), revision: revision }).strict();
const basis = z.enum(['observed', 'inferred', 'generated']);
const claim = z
  .object({ statement: z.string().min(1).max(2000), basis, evidence: z.array(evidenceRef).max(20), uncertainty: z.string().max(1000) })
  .strict();

const runSchema = z
  .object({
    id: z.string(),
    conversation_id: z.string(),
    conversation_revision: revision,
    generation: revision,
    request_kind: z.enum(REQUEST_KINDS),
    // Statuses and failure codes are the sessions contract's (the seed's, plus the workbench's own).
    status: runStatusSchema,
    failure_code: failureCodeSchema.nullable(),
    failure_message: z.string().nullable(),
    created_at: z.string(),
    expires_at: z.string().nullable(),
    processor: z.string().nullable(),
    model_id: z.string().nullable(),
    model_version: z.string().nullable(),
  })
  .strict();

const answerSchema = z
  .object({
    answer: claim,
    findings: z.array(claim).max(12),
    sentiment: z.array(z.object({ evidence_id: z.string(), revision, label: z.enum(['positive', 'negative', 'neutral', 'mixed', 'unknown']), uncertainty: z.string() }).strict()).max(20),
    query_suggestions: z.array(z.object({ query: z.string().min(1).max(2000), excluded_terms: z.array(z.string()).max(20), evidence: z.array(evidenceRef).max(20), rationale: z.string().min(1).max(1000) }).strict()).max(5),
    limitations: z.array(z.string().min(1).max(1000)).min(1).max(10),
    quantitative_claims: z.boolean(),
    method_version: z.literal(METHOD_VERSION),
  })
  .strict();

const messageSchema = z
  .object({
    id: z.string(),
    run_id: z.string(),
    role: z.literal('assistant'),
    question: z.string().nullable(),
    answer: answerSchema.nullable(),
    created_at: z.string(),
    expires_at: z.string().nullable(),
  })
  .strict();

export const researchOutput = {
  run: runSchema.nullable(),
  message: messageSchema.nullable(),
  conversation_revision: revision.nullable(),
  availability: z
    .object({ configured: z.boolean(), reason: failureCodeSchema.nullable(), processor: z.string().nullable(), retention_hours: z.number().nullable() })
    .strict(),
};

export type ResearchResult = z.output<z.ZodObject<typeof researchOutput>>;
export type ResearchRun = z.output<typeof runSchema>;
export type ResearchAnswer = z.output<typeof answerSchema>;
export type ResearchClaim = z.output<typeof claim>;
export type RequestKind = (typeof REQUEST_KINDS)[number];
export type ResearchFailureCode = z.output<typeof failureCodeSchema>;
export type RequestInput = z.output<z.ZodObject<typeof requestInput>>;
