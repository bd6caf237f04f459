import { transientDataChunk } from '../../../src-preload/contract/dataParts';
import type { RunRecord, SessionStreamEvent } from '../../../src-preload/contract/sessions';
import type { StoredChunk, StreamChunk } from '../../../src-preload/contract/stream';
import { AppError } from '../../../src-preload/contract/errors';
import { budgetContextPolicy } from '../engine/contextPolicy';
import { withAnswerSources } from '../engine/answerSources';
import { providerErrorMeta, runEngine } from '../engine/loop';
import { LlmError } from '../llm/errors';
import { emptyUsage } from '../engine/usage';
import type { ActionExecutorPort, ActionGuardPort, EngineResult, EvidenceLookupPort, KernelPort, ContextPolicyPort } from '../engine/ports';
import type { Ledger } from '../ledger/ledger';
import type { LiveRuns } from '../engine/liveRuns';
import type { Cost, LanguageModelPort, LlmTool, Usage } from '../llm/types';
import { scrubChunk, scrubSecrets } from '../security/secrets';
import { priorHistory } from './priorHistory';
import { activeBranch } from '../../../src-preload/contract/branch';
import { LeaseWaitAborted, type KernelLease } from '../kernel/kernelLease';
import { responsiveModel, yieldToEventLoop } from './responsiveModel';
import { ToolInputCoalescer } from './toolInputCoalescer';
import { errorMessage } from '../shared/errorMessage';

export interface RunSubmission {
  sessionId: string;
  mutationId: string;
  message: string;
  expectedRevision?: number;
  provider?: string;
  model?: string;
  maxTurns?: number;
  /** False: the agent may not start child agents for this message (the composer's switch). */
  delegation?: boolean;
  /**
   * Retry, regenerate or edit-and-resend: the earlier run of this session this one replaces.
   * The old run stays in the ledger and the conversation; the model's context continues
   * from just before it (contract/branch.ts).
   */
  supersedes?: string;
}

/** A run's `start` metadata: what it runs on and, for a retry or an edit, the run it supersedes. */
function runStartMetadata(input: RunSubmission, extra: Record<string, unknown>): Record<string, unknown> {
  return { ...extra, ...(input.supersedes ? { supersedes: input.supersedes } : {}) };
}

export interface RunnerDeps {
  ledger: Ledger;
  /** Throws (an LlmError naming the variables) when the provider has no key. */
  createModel(provider: string | undefined, model: string | undefined, sessionId: string): LanguageModelPort;
  executor: ActionExecutorPort;
  kernel: KernelPort;
  /** Which evidence ids exist in a session (the engine refuses claims citing others). */
  evidenceFor(sessionId: string): EvidenceLookupPort;
  /** The tools of a run's next request (asked before each one: tools found with find_tools join). */
  tools(runId: string): readonly LlmTool[];
  systemPrompt(): string;
  /** The context policy of one run (archive, compaction, standing context: src-main/core/archive); absent: the character budget. */
  contextPolicy?(run: { sessionId: string; runId: string; model: LanguageModelPort; request: string }): ContextPolicyPort;
  /** Where a run is registered once its model and stream exist, for host calls from its cells. */
  liveRuns: LiveRuns;
  /** Broadcast of a stored chunk (IPC topic `session.stream`, the CLI's printer, ...). */
  publish(event: SessionStreamEvent): void;
  /** The enabled skills a message names with `@name` (the composer's picker); each is loaded for that run. */
  mentionedSkills?(message: string): string[];
  /** The check before each step of a run (biosecurity screening, issue 27); absent or undefined: none. */
  guard?(run: { sessionId: string; runId: string; model: LanguageModelPort }): ActionGuardPort | undefined;
  /** Called once a run has ended (any status): owners of per-run state release it. */
  onRunEnd?(sessionId: string, runId: string): void;
  /** The session's kernel lease (issue 25): a run holds it for its whole turn, after the user's cell in progress. */
  kernelLease?: KernelLease;
  /** What the user ran in the Notebook tab, told to the agent before the message (runner/userCellsContext.ts). */
  userCellsNote?(sessionId: string, runId: string): string | null;
  maxTurns?: number;
  /** How long a run's model stream may hold the event loop (responsiveModel.ts); tests pass 0. */
  streamSliceMs?: number;
}

interface ActiveRun {
  runId: string;
  controller: AbortController;
  done: Promise<void>;
}

interface SessionQueue {
  active: ActiveRun | null;
  queue: string[];
}

/**
 * Runs the engine for the sessions of one ledger: one run at a time per session, FIFO
 * queue (a message sent during a run is queued, never dropped), many sessions at once.
 * Every chunk is appended to the ledger (which assigns its seq) and published only once
 * it is durable, in seq order; chunks are group-committed (one fsync per batch), and the
 * text deltas of one block that wait for the same commit are merged into one chunk.
 */
export class SessionRunner {
  private readonly sessions = new Map<string, SessionQueue>();
  private readonly options = new Map<string, RunSubmission>();
  private readonly finished = new Map<string, { promise: Promise<RunRecord>; resolve: (r: RunRecord) => void }>();
  private closed = false;
  /**
   * The publication chain: a chunk is published once it is durable and after every chunk
   * appended before it (publication order = seq order), whether it was group-committed
   * or written synchronously (run start). Never rejects.
   */
  private published: Promise<void> = Promise.resolve();
  /** The chunks waiting for the newest group-commit batch: published together when it commits. */
  private pendingBatch: { durable: Promise<void>; events: SessionStreamEvent[] } | null = null;
  /** A group commit that failed, per run: the run fails with it when it ends. */
  private readonly storeFailures = new Map<string, unknown>();
  /** Tool-argument pieces are merged before they are written (one row per piece was 917k rows). */
  private readonly deltas = new ToolInputCoalescer((sessionId, runId, chunk) => this.emit(sessionId, runId, chunk));

  constructor(private readonly deps: RunnerDeps) {}

  /** Idempotent on mutationId: a repeat returns the same run and never runs it again. */
  submit(input: RunSubmission): RunRecord {
    if (this.closed) throw new AppError('unavailable', 'The app is shutting down; the message was not sent.');
    if (input.supersedes) this.checkSuperseded(input.sessionId, input.supersedes);
    const result = this.deps.ledger.runs.submit(input.sessionId, input.mutationId, input.message, input.expectedRevision);
    if (!result.created) return result.run;
    this.options.set(result.run.id, input);
    this.waiter(result.run.id);
    const q = this.queueOf(input.sessionId);
    q.queue.push(result.run.id);
    if (q.active) {
      this.emit(input.sessionId, result.run.id, transientDataChunk('run-status', { runId: result.run.id, status: 'queued', position: q.queue.length }));
    }
    this.pump(input.sessionId);
    return result.run;
  }

  /** A run may replace only a finished run of the same session (a running one is stopped first). */
  private checkSuperseded(sessionId: string, runId: string): void {
    const run = this.deps.ledger.runs.find(runId);
    if (!run || run.sessionId !== sessionId) throw new AppError('invalid_input', `No run ${runId} in session ${sessionId} to retry or edit.`);
    if (run.status === 'queued' || run.status === 'processing')
      throw new AppError('conflict', 'That run has not finished; stop it first, then retry or edit it.');
  }

  /** Cancels the session's current run only; the next queued run then starts. */
  stop(sessionId: string): { stopped: string | null } {
    const active = this.sessions.get(sessionId)?.active;
    if (!active) return { stopped: null };
    active.controller.abort();
    return { stopped: active.runId };
  }

  /**
   * Cancels every run of a session that is going away (deleted): queued runs without
   * starting, the active one as Stop does. Resolves once the active run has ended, so its
   * closing chunks are written while the session still exists.
   */
  async cancelSession(sessionId: string, reason: string): Promise<void> {
    const q = this.sessions.get(sessionId);
    if (!q) return;
    // Taken off the queue first, so none starts when the active run ends; closed after it.
    const waiting = q.queue.splice(0);
    if (q.active) {
      q.active.controller.abort();
      await q.active.done;
    }
    for (const runId of waiting) await this.cancelQueued(sessionId, runId, reason);
  }

  /** Resolves with the run's final record once it has finished (any status). */
  result(runId: string): Promise<RunRecord> {
    const known = this.finished.get(runId);
    if (known) return known.promise;
    const run = this.deps.ledger.runs.require(runId);
    if (run.status !== 'queued' && run.status !== 'processing') return Promise.resolve(run);
    return this.waiter(runId).promise;
  }

  /**
   * Appends a chunk of a run this runner did not start (a child agent's, issue 20) to the
   * session's stream: stored, then published in seq order like the runner's own chunks.
   */
  append(sessionId: string, runId: string, chunk: StreamChunk): void {
    this.emit(sessionId, runId, chunk);
  }

  /** Which run is active and which are queued, per session. */
  state(sessionId: string): { active: string | null; queued: string[] } {
    const q = this.sessions.get(sessionId);
    return { active: q?.active?.runId ?? null, queued: [...(q?.queue ?? [])] };
  }

  /** Stops everything: active runs are cancelled, queued runs are cancelled without starting. */
  async close(): Promise<void> {
    this.closed = true;
    const running: Promise<void>[] = [];
    const waiting: [string, string[]][] = [];
    for (const [sessionId, q] of this.sessions) {
      waiting.push([sessionId, q.queue.splice(0)]);
      if (q.active) {
        q.active.controller.abort();
        running.push(q.active.done);
      }
    }
    // Queued runs are closed after the active ones, so no chunk of theirs lands inside a
    // message that is still being written.
    await Promise.all(running);
    for (const [sessionId, runIds] of waiting) {
      for (const runId of runIds) await this.cancelQueued(sessionId, runId, 'The app closed before this queued message ran; send it again to run it.');
    }
    // Shutdown commits whatever is still queued and publishes it before the ledger closes.
    this.deltas.flushAll();
    this.deps.ledger.events.flush();
    await this.published;
  }

  private queueOf(sessionId: string): SessionQueue {
    let q = this.sessions.get(sessionId);
    if (!q) {
      q = { active: null, queue: [] };
      this.sessions.set(sessionId, q);
    }
    return q;
  }

  private waiter(runId: string) {
    let entry = this.finished.get(runId);
    if (!entry) {
      let resolve!: (r: RunRecord) => void;
      const promise = new Promise<RunRecord>((r) => (resolve = r));
      entry = { promise, resolve };
      this.finished.set(runId, entry);
    }
    return entry;
  }

  /**
   * Appends a chunk through the ledger's group commit (its seq is assigned now) and
   * publishes it once the batch holding it is committed: "ledger before publish", without
   * one fsync per chunk on the main thread (see src-main/core/ledger/README.md).
   */
  private emit(sessionId: string, runId: string, raw: StreamChunk): void {
    // Errors may quote a provider's answer, which may echo the key: scrubbed before storage.
    const chunk = scrubChunk(raw);
    // Text and reasoning deltas that wait for the same commit share a row (EventLog.enqueue).
    // A host call's activity note may wait longer for company: a cell's burst of calls
    // (each answered once its audit is in the journal) then shares one commit per lazyCommitMs.
    const lazy = chunk.type === 'data-host-call';
    const { event, durable, merged } = this.deps.ledger.events.enqueue(sessionId, runId, chunk, { mergeDeltas: true, lazy });
    // A merged delta is already in the batch, in the event it joined: published with it.
    if (merged) return;
    // The ledger's copy (what is stored, and what a merged delta grows) is what is published.
    this.publishInOrder(durable, { sessionId, seq: event.seq, runId, chunk: event.chunk });
  }

  /** A chunk the ledger already committed synchronously (run start): published in its turn. */
  private publishStored(event: StoredChunk): void {
    // A user's turn is stored (run start): the turns before it have ended, so they are folded
    // and stored for the next open, in steps, while the model prepares its first token.
    if (event.chunk.type === 'user-message') void this.deps.ledger.folds.catchUp(event.sessionId, event.seq);
    this.publishInOrder(Promise.resolve(), { sessionId: event.sessionId, seq: event.seq, runId: event.runId, chunk: event.chunk });
  }

  private publishInOrder(durable: Promise<void>, event: SessionStreamEvent): void {
    // Chunks of the same group-commit batch share its promise: one link of the chain per
    // batch, not per chunk. A batch stops taking chunks once it is committed (the ledger
    // opens a new one), so every chunk is published exactly once.
    if (this.pendingBatch?.durable === durable) {
      this.pendingBatch.events.push(event);
      return;
    }
    const batch = { durable, events: [event] };
    this.pendingBatch = batch;
    const before = this.published;
    this.published = durable.then(
      () =>
        before.then(() => {
          if (this.pendingBatch === batch) this.pendingBatch = null;
          for (const e of batch.events) {
            try {
              this.deps.publish(e);
            } catch {
              // a subscriber's failure is not the run's
            }
          }
        }),
      (error: unknown) => {
        if (this.pendingBatch === batch) this.pendingBatch = null;
        // Not durable, so never published; each run fails with the error when it ends.
        for (const e of batch.events) if (e.runId && !this.storeFailures.has(e.runId)) this.storeFailures.set(e.runId, error);
        return before;
      },
    );
  }

  /**
   * Waits until every chunk appended so far is committed and published. A run ends only
   * after this, so its result never resolves before its last chunk is durable and seen.
   * Throws if one of the run's chunks could not be stored.
   */
  private async settle(runId: string): Promise<void> {
    try {
      this.deps.ledger.events.flush();
    } catch {
      // reported to the waiters of that batch, hence to storeFailures below
    }
    await this.published;
    const failure = this.storeFailures.get(runId);
    if (failure !== undefined) {
      this.storeFailures.delete(runId);
      throw failure instanceof Error ? failure : new Error(String(failure));
    }
  }

  /** How many entries the per-session and per-run tables hold (diagnostics and the lifecycle test). */
  sizes(): { sessions: number; options: number; waiters: number; heldDeltas: number } {
    return { sessions: this.sessions.size, options: this.options.size, waiters: this.finished.size, heldDeltas: this.deltas.size };
  }

  private pump(sessionId: string): void {
    const q = this.sessions.get(sessionId);
    if (!q || q.active || this.closed) return;
    const runId = q.queue.shift();
    if (!runId) {
      // Idle with nothing queued: the session holds no entry here until its next run.
      this.sessions.delete(sessionId);
      return;
    }
    const controller = new AbortController();
    const active: ActiveRun = { runId, controller, done: Promise.resolve() };
    q.active = active;
    active.done = this.executeWithLease(sessionId, runId, controller)
      .catch(async (error) => {
        // A bug or a storage failure must not leave the run (and its waiters) hanging.
        const message = `Internal error: ${errorMessage(error)}`;
        await this.published;
        this.storeFailures.delete(runId);
        try {
          this.finishRun(sessionId, runId, { status: 'failed', failureCode: 'internal', failureMessage: message });
        } catch {
          this.waiter(runId).resolve({ ...this.deps.ledger.runs.require(runId), status: 'failed', failureCode: 'internal', failureMessage: message });
          this.release(sessionId, runId);
        }
      })
      .finally(() => {
        if (q.active === active) q.active = null;
        this.pump(sessionId);
      });
  }

  /**
   * A run holds the session's kernel lease for its whole turn (issue 25), so a user's cell
   * or an environment switch never lands between two of its cells; it waits for one in
   * progress. Stopped while it waits, it is cancelled without starting.
   */
  private async executeWithLease(sessionId: string, runId: string, controller: AbortController): Promise<void> {
    const lease = this.deps.kernelLease;
    if (!lease) return this.execute(sessionId, runId, controller);
    let release: () => void;
    try {
      release = await lease.acquire(sessionId, { kind: 'agent', id: runId, label: "the agent's run" }, {
        signal: controller.signal,
        onWait: (holder) => this.emit(sessionId, runId, transientDataChunk('run-status', { runId, status: 'queued', position: 1, waitingFor: holder.label, waitingForKind: holder.kind })),
      });
    } catch (error) {
      if (!(error instanceof LeaseWaitAborted)) throw error;
      return this.cancelQueued(sessionId, runId, error.message);
    }
    try {
      await this.execute(sessionId, runId, controller);
    } finally {
      release();
    }
  }

  private async execute(sessionId: string, runId: string, controller: AbortController): Promise<void> {
    const input = this.options.get(runId)!;
    const { ledger } = this.deps;
    let model: LanguageModelPort;
    try {
      model = this.deps.createModel(input.provider, input.model, sessionId);
    } catch (error) {
      this.publishStored(ledger.runs.start(runId, input.provider ?? null, input.model ?? null).event);
      const message = errorMessage(error);
      // Which provider lacked what (a missing key, an unknown id): the UI explains it and offers the setup.
      const info = error instanceof LlmError ? error.info : null;
      const provider = info?.provider ?? input.provider;
      this.emit(sessionId, runId, { type: 'start', messageId: runId, messageMetadata: runStartMetadata(input, provider ? { provider } : {}) });
      // The outcome travels with the message as the engine's own end does, so the renderer
      // (which reads run status from the stream) shows the run failed, not still running.
      this.emit(sessionId, runId, {
        type: 'message-metadata',
        messageMetadata: { run: { status: 'failed', failureCode: 'not_configured', failureMessage: message, turns: 0, usage: emptyUsage(), cost: null, ...(info ? { providerError: providerErrorMeta(info) } : {}) } },
      });
      this.emit(sessionId, runId, { type: 'error', errorText: message, errorCode: 'not_configured', ...(info ? { errorType: info.errorType } : {}) });
      this.emit(sessionId, runId, { type: 'finish', finishReason: 'error' });
      await this.settle(runId);
      this.finishRun(sessionId, runId, { status: 'failed', failureCode: 'not_configured', failureMessage: message });
      return;
    }
    // The conversation before this run, folded from the ledger (stream equals history).
    // A retry or an edit continues from just before the run it supersedes.
    const before = priorHistory(activeBranch(ledger.history(sessionId).messages, input.supersedes));
    this.publishStored(ledger.runs.start(runId, model.providerId, model.model).event);
    const generation = { live: true };
    const evidence = this.deps.evidenceFor(sessionId);
    // A cell's host calls stream through the engine once it runs (its activity steps see their approvals).
    let engineEmit: ((chunk: StreamChunk) => void) | null = null;
    // host.llm from its cells is a model call of the run: the engine's meter counts it.
    let engineCharge: ((usage: Usage, cost: Cost | null) => void) | null = null;
    this.deps.liveRuns.start(sessionId, {
      runId,
      model,
      emit: (chunk) => (engineEmit ? engineEmit(chunk) : generation.live && this.deltas.push(sessionId, runId, chunk)),
      charge: (usage, cost) => engineCharge?.(usage, cost),
      signal: controller.signal,
      ...(input.delegation === false ? { delegation: false } : {}),
    });
    const guard = this.deps.guard?.({ sessionId, runId, model });
    // The run's start (its history folded, its record written) and the engine's first turn are separate slices.
    await yieldToEventLoop();
    let result: EngineResult;
    try {
      result = await runEngine(
        {
          // Consumed in slices: a fast stream never holds the main process for long.
          model: responsiveModel(model, this.deps.streamSliceMs),
          executor: this.deps.executor,
          kernel: this.deps.kernel,
          evidence,
          // Archive, compaction and standing context when wired (buildRunner); else the plain character budget.
          context: this.deps.contextPolicy?.({ sessionId, runId, model, request: input.message }) ?? budgetContextPolicy(),
          // Late events of a finished or cancelled run are dropped (the generation is over).
          // A cited answer is followed by its sources (source-url / source-document parts).
          sink: withAnswerSources({ emit: (chunk) => generation.live && this.deltas.push(sessionId, runId, chunk) }, evidence),
          ...(guard ? { guard } : {}),
        },
        {
          sessionId,
          runId,
          // Rebuilt before every request (never summarised away by a compaction).
          system: () => this.deps.systemPrompt(),
          tools: () => this.deps.tools(runId),
          history: [...before, { role: 'user', content: this.withUserCells(sessionId, runId, await this.withAttachedSkills(sessionId, runId, input.message, controller.signal)) }],
          signal: controller.signal,
          maxTurns: input.maxTurns ?? this.deps.maxTurns,
          startMetadata: runStartMetadata(input, { provider: model.providerId, model: model.model }),
          bindEmit: (emit) => {
            engineEmit = emit;
          },
          bindCharge: (charge) => {
            engineCharge = charge;
          },
          onEnding: () => this.deps.liveRuns.ending(sessionId, runId),
        },
      );
    } finally {
      generation.live = false;
      this.deltas.flush(sessionId);
    }
    // The run ends after its chunks: all committed (in seq order) and published.
    await this.settle(runId);
    const usage = {
      ...(result.usage.promptTokens !== null ? { inputTokens: result.usage.promptTokens } : {}),
      ...(result.usage.completionTokens !== null ? { outputTokens: result.usage.completionTokens } : {}),
      ...(result.usage.reasoningTokens !== null ? { reasoningTokens: result.usage.reasoningTokens } : {}),
      ...(result.usage.cachedTokens !== null ? { cachedInputTokens: result.usage.cachedTokens } : {}),
    };
    this.finishRun(sessionId, runId, {
      status: result.status,
      ...(result.failureCode ? { failureCode: result.failureCode } : {}),
      ...(result.failureMessage ? { failureMessage: result.failureMessage } : {}),
      usage,
      ...(result.cost?.currency === 'USD' ? { costUsd: result.cost.amount } : {}),
    });
  }

  /**
   * Ends a run that never started. Its message enters the stream (a queued message lives
   * only in `runs.message` until its run starts), closed as cancelled the way the engine
   * closes a stopped run, so the history shows it instead of silently losing it.
   */
  private async cancelQueued(sessionId: string, runId: string, reason: string): Promise<void> {
    const input = this.options.get(runId);
    this.publishStored(this.deps.ledger.runs.start(runId, input?.provider ?? null, input?.model ?? null).event);
    this.emit(sessionId, runId, { type: 'start', messageId: runId, ...(input?.supersedes ? { messageMetadata: runStartMetadata(input, {}) } : {}) });
    this.emit(sessionId, runId, {
      type: 'message-metadata',
      messageMetadata: { run: { status: 'cancelled', failureCode: 'cancelled', failureMessage: reason, turns: 0, usage: emptyUsage(), cost: null } },
    });
    this.emit(sessionId, runId, { type: 'abort', reason });
    // A store failure of this run cannot change the outcome any more: it is cancelled either way.
    await this.settle(runId).catch(() => undefined);
    this.finishRun(sessionId, runId, { status: 'cancelled', failureCode: 'cancelled', failureMessage: reason });
  }

  /**
   * Skills the user attached with `@name` are loaded before the first request, through the
   * executor (so the audit records name, source and sha256 as for load_skill), and their
   * text follows the message.
   */
  private async withAttachedSkills(sessionId: string, runId: string, message: string, signal: AbortSignal): Promise<string> {
    const names = this.deps.mentionedSkills?.(message) ?? [];
    if (!names.length) return message;
    const calls = names.map((name, i) => ({ id: `attach-${runId}-${i}`, name: 'load_skill', rawArguments: JSON.stringify({ name }), arguments: { name }, parseError: null }));
    const results = await this.deps.executor.executeBatch(calls, { sessionId, runId, signal, emit: () => undefined });
    const attached = results.filter((r) => !r.isError).map((r) => r.content);
    return attached.length ? `${message}\n\n---\nSkills attached by the user (follow them):\n\n${attached.join('\n\n')}` : message;
  }

  /** The user's Notebook cells go before the message: the agent works in the same kernels. */
  private withUserCells(sessionId: string, runId: string, message: string): string {
    const note = this.deps.userCellsNote?.(sessionId, runId);
    return note ? `${note}\n\n---\n\n${message}` : message;
  }

  private finishRun(sessionId: string, runId: string, outcome: Parameters<Ledger['runs']['finish']>[1]): void {
    const record = this.deps.ledger.runs.finish(runId, outcome.failureMessage ? { ...outcome, failureMessage: scrubSecrets(outcome.failureMessage) } : outcome);
    // The session is free as soon as its run is recorded as finished.
    const q = this.sessions.get(sessionId);
    if (q?.active?.runId === runId) q.active = null;
    this.waiter(runId).resolve(record);
    this.release(sessionId, runId);
  }

  /**
   * Drops what this runner kept for a finished run: its submission and its waiter (a later
   * `result()` reads the finished record from the ledger), then lets the other owners of
   * per-run state release theirs.
   */
  private release(sessionId: string, runId: string): void {
    this.deps.liveRuns.end(sessionId, runId);
    this.options.delete(runId);
    this.finished.delete(runId);
    this.storeFailures.delete(runId);
    try {
      this.deps.onRunEnd?.(sessionId, runId);
    } catch {
      // releasing a cache must never fail the run that ended
    }
  }
}
