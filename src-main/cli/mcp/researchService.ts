import { failureCodeSchema, type RunRecord, type SessionSummary } from '../../../src-preload/contract/sessions';
import { AppError } from '../../../src-preload/contract/errors';
import type { Core } from '../../core/core';
import { defaultProviderId, resolveProvider } from '../../core/config/providers';
import { findProvider } from '../../core/config/providerCatalog';
import { deniedCalls, storedAnswer, toResearchAnswer } from './answerMap';
import { REQUEST_KINDS, type RequestInput, type RequestKind, type ResearchFailureCode, type ResearchResult, type ResearchRun } from './researchSchema';

/** A refusal the client can act on: `revision_conflict`, `context_changed`, `not_found`. */
export class ResearchError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Mutation ids from MCP are kept apart from the app's, and carry the request kind for later status reads. */
const MUTATION_PREFIX = 'mcp:';
const mutationKey = (kind: RequestKind, mutationId: string) => `${MUTATION_PREFIX}${kind}:${mutationId}`;
const kindOf = (run: RunRecord): RequestKind => {
  const kind = run.mutationId.startsWith(MUTATION_PREFIX) ? run.mutationId.slice(MUTATION_PREFIX.length).split(':')[0] : null;
  return (REQUEST_KINDS as readonly string[]).includes(kind ?? '') ? (kind as RequestKind) : 'question';
};
const isMutation = (run: RunRecord, mutationId: string) => run.mutationId.startsWith(MUTATION_PREFIX) && run.mutationId.endsWith(`:${mutationId}`);

/** How each kind of request is put to the agent (a question goes as it is). */
const FRAMING: Record<RequestKind, (q: string) => string> = {
  question: (q) => q,
  overview: (q) => `Give a cited overview of: ${q}`,
  themes: (q) => `Identify the main themes, each with its sources, in: ${q}`,
  audiences: (q) => `Identify the audiences concerned and what the sources say each needs to know about: ${q}`,
  sentiment: (q) => `Assess, with sources, whether the evidence is positive, negative, neutral or mixed about: ${q}`,
  query_suggestions: (q) => `Suggest up to five follow-up search queries, each with its rationale and sources, for: ${q}`,
};

export interface ResearchServiceOptions {
  /** How long a request waits for its run before answering with its current status (poll with research_assistant_status). */
  waitMs: number;
}

/** The research tool over the core: a request is a run of the session runner; a status read is the ledger's record of it. */
export class ResearchService {
  constructor(
    private readonly core: Core,
    private readonly options: ResearchServiceOptions,
  ) {}

  /** Whether a model can be asked: the default provider and its key (environment, .env or Settings). */
  availability(): ResearchResult['availability'] {
    try {
      const id = defaultProviderId(this.core.config.env);
      const spec = findProvider(id);
      if (!spec) return { configured: false, reason: 'not_configured', processor: null, retention_hours: null };
      const resolved = resolveProvider(spec, this.core.config.env, this.core.config.settingsKey, this.core.config.settingsEndpoint);
      return { configured: resolved.configured, reason: resolved.configured ? null : 'not_configured', processor: id, retention_hours: null };
    } catch {
      // An unknown OPENAI4S_PROVIDER: nothing can run until it is fixed.
      return { configured: false, reason: 'not_configured', processor: null, retention_hours: null };
    }
  }

  private session(id: string): SessionSummary {
    try {
      return this.core.ledger.sessions.require(id);
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') throw new ResearchError('not_found', `No conversation ${id} in this workbench. Omit conversation_id to start a new one.`);
      throw error;
    }
  }

  /**
   * The run an earlier request with this mutation id started, in the named conversation or
   * any: a retried request without conversation_id must find the session its first attempt
   * created. The ledger keys mutations per session, so this reads each session's runs (a
   * few thousand rows at most); the lookup and the submit that follows run without an await
   * between them, so two requests in this process cannot both miss and start two runs.
   */
  private existing(mutationId: string, conversationId: string | undefined): RunRecord | null {
    const { ledger } = this.core;
    const sessions = conversationId ? [this.session(conversationId)] : ledger.sessions.list();
    for (const s of sessions) {
      const found = ledger.runs.listBySession(s.id).find((r) => isMutation(r, mutationId));
      if (found) return found;
    }
    return null;
  }

  async request(input: RequestInput): Promise<ResearchResult> {
    const earlier = this.existing(input.mutation_id, input.conversation_id);
    // The same mutation never runs twice: its run is answered, whatever changed since.
    if (earlier) return this.view(await this.settle(earlier));
    const availability = this.availability();
    const current = input.conversation_id ? this.session(input.conversation_id) : null;
    if (!availability.configured) return { run: null, message: null, conversation_revision: current?.revision ?? null, availability };
    if (current && input.parent_message_id) this.checkParent(current, input.parent_message_id);
    const session = current ?? this.core.ledger.createSession(input.question.length > 60 ? `${input.question.slice(0, 57)}...` : input.question);
    let run: RunRecord;
    try {
      run = this.core.runner.submit({
        sessionId: session.id,
        mutationId: mutationKey(input.request_kind, input.mutation_id),
        message: FRAMING[input.request_kind](input.question),
        ...(input.expected_revision === undefined ? {} : { expectedRevision: input.expected_revision }),
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'revision_conflict') throw new ResearchError('revision_conflict', error.message);
      throw error;
    }
    return this.view(await this.settle(run));
  }

  async status(runId: string): Promise<ResearchResult> {
    const run = this.core.ledger.runs.find(runId);
    if (!run) throw new ResearchError('not_found', `No run ${runId} in this workbench. Use the run id a research_assistant_request returned.`);
    return this.view(run);
  }

  /** A follow-up must follow the conversation's latest message; message ids are run ids. */
  private checkParent(session: SessionSummary, parent: string): void {
    const runs = this.core.ledger.runs.listBySession(session.id);
    if (!runs.some((r) => r.id === parent)) throw new ResearchError('not_found', `Message ${parent} is not in conversation ${session.id} (message ids are the run ids this tool returns).`);
    const latest = runs.at(-1)!;
    if (latest.id !== parent) {
      throw new ResearchError('context_changed', `Conversation ${session.id} moved on: its latest message is ${latest.id}, not ${parent}. Read it with research_assistant_status, then send again with parent_message_id ${latest.id}.`);
    }
  }

  /** Waits for the run to end, at most waitMs; then the run as it is (queued or processing: poll its status). */
  private async settle(run: RunRecord): Promise<RunRecord> {
    if (run.status !== 'queued' && run.status !== 'processing') return run;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), this.options.waitMs)));
    const done = await Promise.race([this.core.runner.result(run.id), timeout]).finally(() => clearTimeout(timer));
    return done ?? this.core.ledger.runs.require(run.id);
  }

  private view(run: RunRecord): ResearchResult {
    const session = this.core.ledger.sessions.require(run.sessionId);
    // A code this tool does not know (a newer app's) is reported as internal rather than dropped.
    const code: ResearchFailureCode | null = !run.failureCode ? null : (failureCodeSchema.safeParse(run.failureCode).data ?? 'internal');
    const shape: ResearchRun = {
      id: run.id,
      conversation_id: run.sessionId,
      conversation_revision: session.revision,
      // The same mutation is never generated again, so each run is its message's first and only generation.
      generation: 1,
      request_kind: kindOf(run),
      status: run.status,
      failure_code: code,
      failure_message: run.failureMessage,
      created_at: run.createdAt,
      // Runs and their answers are kept in the local ledger; nothing expires.
      expires_at: null,
      processor: run.provider,
      model_id: run.model,
      model_version: null,
    };
    const chunks = run.status === 'completed' ? this.core.ledger.events.readRun(run.sessionId, run.id) : [];
    const answer = storedAnswer(chunks);
    const base = this.availability();
    const availability = code === 'not_configured' ? { ...base, configured: false, reason: code } : { ...base, reason: run.status === 'completed' ? null : code };
    return {
      run: shape,
      message: answer
        ? { id: run.id, run_id: run.id, role: 'assistant', question: run.message, answer: toResearchAnswer(answer, deniedCalls(chunks)), created_at: run.finishedAt ?? run.createdAt, expires_at: null }
        : null,
      conversation_revision: session.revision,
      availability,
    };
  }
}
