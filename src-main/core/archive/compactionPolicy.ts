import { randomUUID } from 'node:crypto';
import type { CompactionData, Handoff } from '../../../src-preload/contract/compaction';
import { dataChunk } from '../../../src-preload/contract/dataParts';
import type { ContextPolicyPort, ContextRequest, PreparedContext } from '../engine/ports';
import type { Ledger } from '../ledger/ledger';
import type { Cost, LanguageModelPort, LlmMessage, Usage } from '../llm/types';
import type { ContextWindow } from './contextWindow';
import { isCellResult, segmentHistory } from './groups';
import { fallbackHandoff, renderHandoff, summarise } from './handoff';
import { ledgerFacts, type FactsLedger } from './ledgerFacts';
import { ARCHIVED_NOTE, archivedPreview } from './preview';
import type { ArchivedRef, ResultArchive } from './resultArchive';
import { fitTokens, renderStanding, STANDING_CAP_TOKENS, type StandingContextSource } from './standingContext';
import { messageTokens, toolTokens, type TokenCounter } from './tokens';

export interface CompactionOptions {
  /** Compact when the request would take more than this share of the window. */
  triggerRatio: number;
  /** A compaction brings the request under this share (the kept recent turns fit in it). */
  targetRatio: number;
  /** Results larger than this (UTF-8 bytes) are archived once a newer turn follows them. */
  archiveBytes: number;
  /** Tokens kept free for the reply (and a tool the policy discloses, such as recall). */
  outputReserve: number;
  /** Tokens the standing context may take. */
  standingCapTokens: number;
}

export function defaultCompactionOptions(windowTokens: number): CompactionOptions {
  return {
    triggerRatio: 0.75,
    targetRatio: 0.5,
    archiveBytes: 8 * 1024,
    outputReserve: Math.min(8_192, Math.floor(windowTokens * 0.1)),
    standingCapTokens: Math.min(STANDING_CAP_TOKENS, Math.floor(windowTokens * 0.05)),
  };
}

export interface CompactionPolicyDeps {
  sessionId: string;
  runId: string;
  /** The run's model: the summary is asked of the same provider. */
  model: LanguageModelPort;
  window: ContextWindow;
  counter: TokenCounter | Promise<TokenCounter>;
  archive: Pick<ResultArchive, 'put'>;
  ledger: FactsLedger & Pick<Ledger, 'archive'>;
  /** The user's message that started the run, kept verbatim above every handoff. */
  request: string;
  /** Memory, plan and other standing sections, asked every turn. */
  standing?: StandingContextSource;
  /** Called when the run archived its first result (the runner offers `recall` from then on). */
  onArchived?(): void;
  options?: Partial<CompactionOptions>;
}

/** Tokens a handoff may take in the request; the summary is asked to stay well inside it. */
const HANDOFF_ALLOWANCE = 3_000;

/** How a compaction was made, until it is recorded. */
interface Made {
  /** False when the run was stopped during the summary: nothing was compacted, the call still cost. */
  handoff: boolean;
  source: 'model' | 'fallback';
  fallbackReason?: string;
  turn: number;
  usage?: Usage;
  cost?: Cost | null;
}

const bulky = (m: LlmMessage): boolean => m.role === 'tool' || isCellResult(m);

/**
 * The context policy of a long run (issue 19). Each turn: the system prompt plus standing
 * context (rebuilt, never summarised); bulky results older than the newest turn archived
 * by sha256 with a preview; and, when the request would still pass `triggerRatio` of the
 * window, the older turns replaced by a structured handoff written by the same provider
 * (or, when that fails, by the deterministic fallback). Cuts fall only between atomic
 * groups (groups.ts). Each compaction is a ledger row and a `data-compaction` part.
 */
export class CompactionPolicy implements ContextPolicyPort {
  private readonly options: CompactionOptions;
  private handoff: Handoff | null = null;
  /** How many messages at the head of the history the handoff replaces. */
  private covered = 0;
  private compactions = 0;
  private archivedCount = 0;
  /** The preview that replaced a message, by the message (history keeps the same objects). */
  private readonly replaced = new WeakMap<LlmMessage, LlmMessage>();
  private readonly tokenCache = new WeakMap<LlmMessage, number>();
  private readonly stored = new WeakMap<LlmMessage, ArchivedRef>();
  private counter: TokenCounter | null = null;
  /** The handoff as rendered for this turn's request (ledger facts read once a turn, not per sizing). */
  private handoffText: string | null = null;

  constructor(private readonly deps: CompactionPolicyDeps) {
    this.options = { ...defaultCompactionOptions(deps.window.tokens), ...deps.options };
  }

  /** The handoff in force (null before the first compaction). */
  get currentHandoff(): Handoff | null {
    return this.handoff;
  }

  async prepare(history: readonly LlmMessage[], request?: ContextRequest): Promise<PreparedContext> {
    const counter = (this.counter = await this.deps.counter);
    this.handoffText = null;
    const { sessionId, runId } = this.deps;
    const base = request?.system ?? '';
    const sections = this.deps.standing ? await this.deps.standing(sessionId, runId) : [];
    const standing = renderStanding(sections, counter, this.options.standingCapTokens);
    const system = standing ? `${base}\n\n# Standing context (rebuilt every turn)\n${standing}` : base;
    const fixed = counter.count(system) + toolTokens(counter, request?.tools ?? []) + this.options.outputReserve;
    const window = this.deps.window.tokens;
    const trigger = Math.floor(window * this.options.triggerRatio);

    let view = this.view(history, false);
    let total = fixed + this.messagesTokens(counter, this.assemble(view));
    let spent: Pick<PreparedContext, 'usage' | 'cost'> = {};
    if (total > trigger) {
      const before = total;
      const made = await this.compact(view, counter, fixed, request);
      if (made?.usage) spent = { usage: made.usage, cost: made.cost ?? null };
      if (made?.handoff) {
        view = this.view(history, false);
        total = fixed + this.messagesTokens(counter, this.assemble(view));
        this.announce(made, before, total, request);
      }
    }
    // Still over (the newest turn alone is huge): its results are archived too.
    if (total > trigger) view = this.view(history, true);
    return { messages: this.assemble(view), system, ...spent };
  }

  /** The history after the handoff, with bulky results archived (all of them when `all`, else all but the newest group's). */
  private view(history: readonly LlmMessage[], all: boolean): LlmMessage[] {
    const rest = history.slice(this.covered);
    const groups = segmentHistory(rest);
    const newest = groups.length ? groups[groups.length - 1]!.start : 0;
    return rest.map((m, i) => {
      const done = this.replaced.get(m);
      if (done) return done;
      if (!bulky(m)) return m;
      const bytes = Buffer.byteLength(m.content, 'utf8');
      if (!all && i >= newest) {
        // The newest results stay whole in context, but a large one is archived now: the audit
        // keeps only 8 KB of a result, so the archive is where its full text survives the run.
        if (bytes > this.options.archiveBytes) this.store(m);
        return m;
      }
      if (bytes <= (all ? 1_024 : this.options.archiveBytes)) return m;
      return this.archived(m);
    });
  }

  /** Archives a message's full text once (content-addressed, so a repeat costs a hash). */
  private store(m: LlmMessage): ArchivedRef {
    let ref = this.stored.get(m);
    if (!ref) {
      ref = this.deps.archive.put(this.deps.sessionId, this.deps.runId, m.role === 'tool' ? m.toolName : 'cell', m.content);
      this.stored.set(m, ref);
      if (this.archivedCount++ === 0) this.deps.onArchived?.();
    }
    return ref;
  }

  private archived(m: LlmMessage): LlmMessage {
    const ref = this.store(m);
    const label = m.role === 'tool' ? `${m.toolName} (call ${m.toolCallId})` : 'a cell observation';
    const out = { ...m, content: archivedPreview(m.content, ref, label) } as LlmMessage;
    this.replaced.set(m, out);
    return out;
  }

  private handoffAllowance(): number {
    return Math.min(HANDOFF_ALLOWANCE, Math.floor(this.deps.window.tokens * 0.1));
  }

  private tokensOf(counter: TokenCounter, m: LlmMessage): number {
    let n = this.tokenCache.get(m);
    if (n === undefined) {
      n = messageTokens(counter, m);
      this.tokenCache.set(m, n);
    }
    return n;
  }

  private messagesTokens(counter: TokenCounter, messages: readonly LlmMessage[]): number {
    return messages.reduce((n, m) => n + this.tokensOf(counter, m), 0);
  }

  /** The request's messages: the handoff (rendered now, with the ledger's current facts) before the kept turns. */
  private assemble(view: LlmMessage[]): LlmMessage[] {
    if (!this.handoff) return view;
    // Rendered once per turn (and again after a compaction): the facts are several ledger reads.
    // Bounded whatever the handoff holds, so a compaction always makes room.
    const text = (this.handoffText ??= fitTokens(
      this.counter!,
      renderHandoff(this.handoff, this.deps.request, ledgerFacts(this.deps.ledger, this.deps.sessionId, this.deps.runId), this.compactions),
      this.handoffAllowance(),
    ));
    const first = view[0];
    // Providers want turns to alternate: a kept turn that starts with a user message takes the handoff in front of it.
    if (first?.role === 'user') return [{ role: 'user', content: `${text}\n\n---\n\n${first.content}` }, ...view.slice(1)];
    return [{ role: 'user', content: text }, ...view];
  }

  /**
   * Replaces the oldest groups of the view by a new handoff, keeping as many recent groups
   * as fit in the target (always the newest one). Null when there is nothing older to summarise.
   */
  private async compact(view: LlmMessage[], counter: TokenCounter, fixed: number, request?: ContextRequest): Promise<Made | null> {
    const groups = segmentHistory(view);
    if (groups.length < 2) return null;
    const room = Math.floor(this.deps.window.tokens * this.options.targetRatio) - fixed - this.handoffAllowance();
    let keepFrom = groups[groups.length - 1]!.start;
    let kept = this.messagesTokens(counter, view.slice(keepFrom));
    for (let g = groups.length - 2; g >= 0; g--) {
      const t = this.messagesTokens(counter, view.slice(groups[g]!.start, groups[g]!.end));
      if (kept + t > room) break;
      kept += t;
      keepFrom = groups[g]!.start;
    }
    if (keepFrom === 0) return null;
    const older = view.slice(0, keepFrom);
    const facts = ledgerFacts(this.deps.ledger, this.deps.sessionId, this.deps.runId, { history: true });
    // The summary call's own input must fit the window: about 2.5 characters a token, half the window.
    const maxInputChars = Math.min(400_000, Math.floor(this.deps.window.tokens * 0.5 * 2.5));
    const signal = request?.ctx.signal;
    const summary = await summarise(this.deps.model, { previous: this.handoff, older, facts, maxInputChars, ...(signal ? { signal } : {}) });
    const spent = { ...(summary.usage ? { usage: summary.usage } : {}), ...(summary.cost !== undefined ? { cost: summary.cost } : {}) };
    // Stopped during the summary: nothing is compacted or recorded (the run ends as cancelled).
    if (signal?.aborted) return { handoff: false, source: 'fallback', turn: 0, ...spent };
    const handoff: Handoff = summary.ok
      ? {
          ...summary.handoff,
          // What the ledger knows is never left to the model.
          activeKernelGeneration: facts.activeKernelGeneration.slice(0, 1_000),
          keyArtifacts: [...new Set([...facts.artifacts, ...summary.handoff.keyArtifacts])].slice(0, 60),
        }
      : fallbackHandoff({ request: this.deps.request, previous: this.handoff, older, facts });
    this.handoff = handoff;
    this.handoffText = null;
    this.covered += keepFrom;
    this.compactions++;
    return { handoff: true, source: summary.ok ? 'model' : 'fallback', ...(summary.ok ? {} : { fallbackReason: summary.error }), turn: request?.ctx.turn ?? 1, ...spent };
  }

  /** Records the compaction just made (ledger row) and shows it (the `data-compaction` part). */
  private announce(pending: Made, tokensBefore: number, tokensAfter: number, request?: ContextRequest): void {
    if (!this.handoff) return;
    const id = randomUUID();
    const record = {
      id,
      sessionId: this.deps.sessionId,
      runId: this.deps.runId,
      turn: pending.turn,
      source: pending.source,
      handoff: this.handoff,
      summarisedMessages: this.covered,
      tokensBefore,
      tokensAfter,
      windowTokens: this.deps.window.tokens,
      fallbackReason: pending.fallbackReason ?? null,
    };
    this.deps.ledger.archive.recordCompaction(record);
    const data: CompactionData = {
      id,
      turn: Math.max(1, pending.turn),
      source: pending.source,
      ...(pending.fallbackReason ? { fallbackReason: pending.fallbackReason.slice(0, 2_000) } : {}),
      handoff: this.handoff,
      summarisedMessages: this.covered,
      tokensBefore,
      tokensAfter,
      windowTokens: this.deps.window.tokens,
      archivedResults: this.archivedCount,
    };
    request?.ctx.emit(dataChunk('compaction', `compaction-${id}`, data));
  }
}

/** True when a message is an archived result's preview (tests and the export recognise them). */
export const isArchivedPreview = (m: LlmMessage): boolean => m.content.startsWith(ARCHIVED_NOTE);
