import { applyChunks, foldStateAt, initialFoldState, type FoldState } from '../../../src-preload/contract/fold';
import type {
  ErrorBody,
  RunRecord,
  RunStatus,
  SessionStreamEvent,
  StreamChunk,
  UIMessage,
} from '../../../src-preload/contract';

/**
 * The open conversation as a pure state machine over the session's stream. Chunks are
 * folded with the contract's `applyChunks` (the same code history uses, so live equals
 * reload). Every event carries the session's `seq`: a duplicate is skipped, a gap stops
 * the fold and is reported (`gapAfter`) so the slice can replay what was missed; events
 * that arrive meanwhile wait in `backlog` and are applied, in order, once it is filled.
 */
export interface ConversationState {
  sessionId: string;
  status: 'loading' | 'ready' | 'error';
  fold: FoldState;
  /** The seq of the last chunk folded in (0 before any). */
  lastSeq: number;
  /** The session's runs, oldest first (queued ones are shown as queued bubbles). */
  runs: RunRecord[];
  /** Queued runs waiting for the session's kernel (issue 25), by run id: who holds it. */
  kernelWaits: Record<string, KernelHolderKind>;
  /** Events received while loading or after a gap, not folded yet. */
  backlog: SessionStreamEvent[];
  /** Set when an event skipped ahead of `lastSeq + 1`: the seq to replay from. */
  gapAfter: number | null;
  /**
   * Set while the session, opened at its end, lacks its earlier chunks: the seq the folded
   * tail starts at. The earlier messages are folded and put in front when they arrive.
   */
  earlierBefore: number | null;
  error: ErrorBody | null;
  /** The id of the newest load; answers to older loads are stale. */
  loadId: number;
}

export type KernelHolderKind = 'agent' | 'user' | 'environment';

export type ConversationAction =
  | { type: 'conv/opened'; sessionId: string; loadId: number }
  /** `fromSeq` (default 1): the seq the events start at; a later one is a session opened at its end. */
  | { type: 'conv/loaded'; loadId: number; events: SessionStreamEvent[]; runs: RunRecord[]; fromSeq?: number }
  /** The fold of the chunks before the tail a session was opened with (seq 1 to `earlierBefore - 1`; earlierHistory.ts). */
  | { type: 'conv/earlier'; loadId: number; messages: readonly UIMessage[] }
  | { type: 'conv/failed'; loadId: number; error: ErrorBody }
  | { type: 'conv/events'; events: SessionStreamEvent[] }
  /** The events a replay returned after a gap. */
  | { type: 'conv/replayed'; events: SessionStreamEvent[] }
  | { type: 'conv/runs'; runs: RunRecord[] }
  | { type: 'conv/submitted'; run: RunRecord };

export function openConversation(sessionId: string, loadId: number): ConversationState {
  return {
    sessionId,
    status: 'loading',
    fold: initialFoldState,
    lastSeq: 0,
    runs: [],
    kernelWaits: {},
    backlog: [],
    gapAfter: null,
    earlierBefore: null,
    error: null,
    loadId,
  };
}

interface RunOutcome {
  status?: RunStatus;
  failureCode?: RunRecord['failureCode'];
  failureMessage?: string | null;
}

/** What a chunk says about its run's status (the user's turn starts it; metadata ends it). */
function runStatusOf(chunk: StreamChunk): RunOutcome | null {
  if (chunk.type === 'user-message' || chunk.type === 'start') return { status: 'processing' };
  if (chunk.type === 'message-metadata') {
    const run = (chunk.messageMetadata as { run?: RunOutcome } | undefined)?.run;
    if (run?.status) return run;
  }
  return null;
}

const ACTIVE: ReadonlySet<RunStatus> = new Set(['queued', 'processing']);

function noteRuns(runs: RunRecord[], events: readonly SessionStreamEvent[]): RunRecord[] {
  let out = runs;
  for (const e of events) {
    if (!e.runId) continue;
    const outcome = runStatusOf(e.chunk);
    if (!outcome?.status) continue;
    const i = out.findIndex((r) => r.id === e.runId);
    if (i < 0) continue;
    const run = out[i]!;
    // A finished run never goes back to processing (a late `start` of a replay).
    if (!ACTIVE.has(run.status) && outcome.status === 'processing') continue;
    if (run.status === outcome.status && outcome.failureCode === undefined) continue;
    if (out === runs) out = runs.slice();
    out[i] = {
      ...run,
      status: outcome.status,
      ...(outcome.failureCode !== undefined ? { failureCode: outcome.failureCode } : {}),
      ...(outcome.failureMessage !== undefined ? { failureMessage: outcome.failureMessage } : {}),
    };
  }
  return out;
}

/** A run's wait for the kernel (a transient run-status naming the holder) lasts until the run starts or ends. */
function noteKernelWaits(waits: Record<string, KernelHolderKind>, events: readonly SessionStreamEvent[]): Record<string, KernelHolderKind> {
  let out = waits;
  for (const e of events) {
    if (!e.runId) continue;
    const c = e.chunk as { type: string; data?: { status?: string; waitingForKind?: KernelHolderKind } };
    const kind = c.type === 'data-run-status' && c.data?.status === 'queued' ? c.data.waitingForKind : undefined;
    if (kind) out = { ...out, [e.runId]: kind };
    else if (runStatusOf(e.chunk)?.status && e.runId in out) {
      out = { ...out };
      delete out[e.runId];
    }
  }
  return out;
}

/** Folds events in seq order from `state.lastSeq`; stops at a gap. */
function foldEvents(
  state: ConversationState,
  incoming: readonly SessionStreamEvent[],
): ConversationState {
  const sorted = incoming
    .filter((e) => e.sessionId === state.sessionId)
    .sort((a, b) => a.seq - b.seq);
  let last = state.lastSeq;
  const taken: SessionStreamEvent[] = [];
  let rest: SessionStreamEvent[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const e = sorted[i]!;
    if (e.seq <= last) continue; // already folded (a replay overlapping the live stream)
    if (e.seq !== last + 1) {
      rest = sorted.slice(i).filter((x, j, all) => j === 0 || x.seq !== all[j - 1]!.seq);
      break;
    }
    taken.push(e);
    last = e.seq;
  }
  if (taken.length === 0 && rest.length === 0)
    return state.backlog.length || state.gapAfter !== null
      ? { ...state, backlog: [], gapAfter: null }
      : state;
  return {
    ...state,
    fold: taken.length
      ? applyChunks(
          state.fold,
          taken.map((e) => e.chunk),
        )
      : state.fold,
    lastSeq: last,
    runs: noteRuns(state.runs, taken),
    kernelWaits: noteKernelWaits(state.kernelWaits, taken),
    backlog: rest,
    gapAfter: rest.length ? last : null,
  };
}

export function conversationReducer(
  state: ConversationState,
  action: ConversationAction,
): ConversationState {
  switch (action.type) {
    case 'conv/opened':
      return openConversation(action.sessionId, action.loadId);
    case 'conv/loaded': {
      if (action.loadId !== state.loadId) return state;
      const fromSeq = action.fromSeq ?? 1;
      const base: ConversationState = {
        ...state,
        status: 'ready',
        // A tail starts at a user turn: folded from its position, it continues whatever comes before.
        fold: fromSeq > 1 ? foldStateAt(fromSeq - 1) : initialFoldState,
        lastSeq: fromSeq - 1,
        runs: action.runs,
        kernelWaits: {},
        gapAfter: null,
        earlierBefore: fromSeq > 1 ? fromSeq : null,
        backlog: [],
        error: null,
      };
      // Live events that came in while loading continue the loaded log.
      return foldEvents(base, [...action.events, ...state.backlog]);
    }
    case 'conv/earlier': {
      if (action.loadId !== state.loadId || state.earlierBefore === null) return state;
      // No later chunk touches an earlier message: the head's messages go in front as they are.
      return { ...state, earlierBefore: null, fold: { ...state.fold, messages: [...action.messages, ...state.fold.messages] } };
    }
    case 'conv/failed':
      if (action.loadId !== state.loadId) return state;
      return { ...state, status: 'error', error: action.error };
    case 'conv/events':
      if (state.status !== 'ready' || state.gapAfter !== null) {
        const mine = action.events.filter((e) => e.sessionId === state.sessionId);
        return mine.length ? { ...state, backlog: [...state.backlog, ...mine] } : state;
      }
      return foldEvents(state, action.events);
    case 'conv/replayed':
      if (state.status !== 'ready') return state;
      return foldEvents({ ...state, gapAfter: null, backlog: [] }, [
        ...action.events,
        ...state.backlog,
      ]);
    case 'conv/runs':
      return { ...state, runs: action.runs };
    case 'conv/submitted': {
      // Idempotent: a repeated submission answers with the same run.
      if (state.runs.some((r) => r.id === action.run.id)) return state;
      return { ...state, runs: [...state.runs, withFoldedStatus(state, action.run)] };
    }
  }
}

/**
 * The answer to `run.submit` can arrive after the run's first chunks (it started at
 * once): what the stream already says about the run wins over the submitted record.
 */
function withFoldedStatus(state: ConversationState, run: RunRecord): RunRecord {
  const assistant = state.fold.messages.find((m) => m.id === run.id);
  const outcome = (assistant?.metadata as { run?: RunOutcome } | undefined)?.run;
  if (outcome?.status) return { ...run, status: outcome.status };
  if (assistant || state.fold.messages.some((m) => m.id === `user-${run.id}`))
    return { ...run, status: 'processing' };
  return run;
}

/** Runs waiting behind the active one whose user turn is not in the stream yet. */
export function queuedRuns(state: ConversationState): RunRecord[] {
  const present = new Set(state.fold.messages.map((m) => m.id));
  return state.runs.filter((r) => r.status === 'queued' && !present.has(`user-${r.id}`));
}

/** The run the agent is working on now, if any. */
export function activeRun(state: ConversationState): RunRecord | null {
  return state.runs.find((r) => r.status === 'processing') ?? null;
}

/** The agent is at work in this conversation: a run is processing or its stream is still open. */
export function agentWorking(state: ConversationState | null): boolean {
  return state ? activeRun(state) !== null || state.fold.open : false;
}
