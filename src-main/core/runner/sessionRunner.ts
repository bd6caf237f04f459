import { transientDataChunk } from '../../../src-preload/contract/dataParts';
import type { RunRecord, SessionStreamEvent } from '../../../src-preload/contract/sessions';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import { AppError } from '../../../src-preload/contract/errors';
import { budgetContextPolicy } from '../engine/contextPolicy';
import { withAnswerSources } from '../engine/answerSources';
import { runEngine } from '../engine/loop';
import type { ActionGuardPort, EngineResult, EvidenceLookupPort, KernelPort, ContextPolicyPort } from '../engine/ports';
import type { Ledger } from '../ledger/ledger';
import type { LiveRuns } from '../engine/liveRuns';
import type { Cost, LanguageModelPort, LlmTool, Usage } from '../llm/types';
import { scrubSecrets } from '../security/secrets';
import { DurablePublisher } from './durablePublisher';
import { priorHistory } from './priorHistory';
import { activeBranch } from '../../../src-preload/contract/branch';
import { LeaseWaitAborted, type KernelLease } from '../kernel/kernelLease';
import { responsiveModel, yieldToEventLoop } from './responsiveModel';
import { ToolInputCoalescer } from './toolInputCoalescer';
import { runMessage, type RunMessageDeps } from './runMessage';
import { cancelledRun, engineFinish, notConfiguredRun, runStartMetadata, type RunFinish } from './runOutcome';
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

/** What the runner is built on (buildRunner.ts); the executor, skills and Notebook note also shape a run's first turn (runMessage.ts). */
export interface RunnerDeps extends RunMessageDeps {
  ledger: Ledger;
  /** Throws (an LlmError naming the variables) when the provider has no key. */
  createModel(provider: string | undefined, model: string | undefined, sessionId: string): LanguageModelPort;
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
  /** The check before each step of a run (biosecurity screening, issue 27); absent or undefined: none. */
  guard?(run: { sessionId: string; runId: string; model: LanguageModelPort }): ActionGuardPort | undefined;
  /** Called once a run has ended (any status): owners of per-run state release it. */
  onRunEnd?(sessionId: string, runId: string): void;
  /** The session's kernel lease (issue 25): a run holds it for its whole turn, after the user's cell in progress. */
  kernelLease?: KernelLease;
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
  /** Ledger before publish: chunks group-committed, then published in seq order. */
  private readonly publisher: DurablePublisher;
  /** Tool-argument pieces are merged before they are written (one row per piece was 917k rows). */
  private readonly deltas = new ToolInputCoalescer((sessionId, runId, chunk) => this.emit(sessionId, runId, chunk));

  constructor(private readonly deps: RunnerDeps) {
    this.publisher = new DurablePublisher(deps.ledger, (event) => deps.publish(event));
  }

  /** Idempotent on mutationId: a repeat returns the same run and never runs it again. */
  submit(input: RunSubmission): RunRecord {
    if (this.closed) throw new AppError('unavailable', 'The app is shutting down; the message was not sent.', 'shutting_down');
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
      throw new AppError('conflict', 'That run has not finished; stop it first, then retry or edit it.', 'run_not_finished');
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
    await this.publisher.flush();
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

  /** A chunk of a run: stored through the group commit, published once durable (durablePublisher.ts). */
  private emit(sessionId: string, runId: string, chunk: StreamChunk): void {
    this.publisher.append(sessionId, runId, chunk);
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
        await this.publisher.drained();
        this.publisher.forget(runId);
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
      // Which provider lacked what (a missing key, an unknown id): the UI explains it and offers the setup.
      this.publisher.stored(ledger.runs.start(runId, input.provider ?? null, input.model ?? null).event);
      const { chunks, finish } = notConfiguredRun(runId, input, error);
      for (const chunk of chunks) this.emit(sessionId, runId, chunk);
      await this.publisher.settle(runId);
      this.finishRun(sessionId, runId, finish);
      return;
    }
    // The conversation before this run, folded from the ledger (stream equals history).
    // A retry or an edit continues from just before the run it supersedes.
    const before = priorHistory(activeBranch(ledger.history(sessionId).messages, input.supersedes));
    this.publisher.stored(ledger.runs.start(runId, model.providerId, model.model).event);
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
          history: [...before, { role: 'user', content: await runMessage(this.deps, { sessionId, runId, signal: controller.signal }, input.message) }],
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
    await this.publisher.settle(runId);
    this.finishRun(sessionId, runId, engineFinish(result));
  }

  /** Ends a run that never started (runOutcome.ts `cancelledRun`): its message stays in the history. */
  private async cancelQueued(sessionId: string, runId: string, reason: string): Promise<void> {
    const input = this.options.get(runId);
    this.publisher.stored(this.deps.ledger.runs.start(runId, input?.provider ?? null, input?.model ?? null).event);
    const { chunks, finish } = cancelledRun(runId, input, reason);
    for (const chunk of chunks) this.emit(sessionId, runId, chunk);
    // A store failure of this run cannot change the outcome any more: it is cancelled either way.
    await this.publisher.settle(runId).catch(() => undefined);
    this.finishRun(sessionId, runId, finish);
  }

  private finishRun(sessionId: string, runId: string, outcome: RunFinish): void {
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
    this.publisher.forget(runId);
    try {
      this.deps.onRunEnd?.(sessionId, runId);
    } catch {
      // releasing a cache must never fail the run that ended
    }
  }
}
