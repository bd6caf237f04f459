import { applyJsonPatch } from './jsonPatch';
import { initialJsonScan, parsePartialJson, partialParseDue, scanJsonDelta, type JsonScan } from './partialJson';
import type {
  DataUIPart,
  StreamChunk,
  ToolState,
  UIMessage,
  UIMessageChunk,
  UIPart,
} from './stream';

/**
 * The one pure projection of a session's stream into messages (DESIGN.md: "stream equals
 * history"). The renderer folds live chunks with `applyChunks`; history loading folds the
 * ledger's rows with `fold`; both run this code, so they cannot disagree. It imports no
 * zod and no library: the renderer ships it as a value.
 *
 * Semantics follow the AI SDK's own reader (`processUIMessageStream`), with deliberate
 * differences for a history view that must always render: a chunk that refers to a part
 * that does not exist opens that part instead of throwing, an `error` chunk becomes a
 * visible `data-error` part instead of a callback, and a failed data patch is reported in
 * a `data-error` part while the data keeps its previous value.
 *
 * Immutability: a state is never changed. `applyChunks` copies on write: each message,
 * part and index map is copied at most once per batch and everything else is shared, so
 * folding 100k chunks at once costs what mutation would, and a store holding an older
 * state sees it unchanged.
 */

interface PendingTool {
  index: number;
  text: string;
  /** Length of `text` when the partial input was last parsed (see partialParseDue). */
  parsedAt: number;
  /** Where the text stands as JSON (depth, inside a string), kept delta by delta. */
  scan: JsonScan;
}

export { parsePartialJson };
// Retry and edit-and-resend branches (pure; the renderer marks superseded messages with it).
export { activeBranch, offBranch, runOfMessage, supersededBy } from './branch';

export interface FoldState {
  readonly messages: readonly UIMessage[];
  /** True while the last message is an assistant message between `start` and `finish`. */
  readonly open: boolean;
  /** Open text / reasoning parts of the last message: chunk id -> part index. */
  readonly text: Readonly<Record<string, number>>;
  readonly reasoning: Readonly<Record<string, number>>;
  /** Tool calls of the last message: toolCallId -> part index and streamed argument text. */
  readonly tools: Readonly<Record<string, PendingTool>>;
  /** How many chunks this state has absorbed. */
  readonly applied: number;
}

export const initialFoldState: FoldState = Object.freeze({
  messages: [],
  open: false,
  text: {},
  reasoning: {},
  tools: {},
  applied: 0,
});

/**
 * The state to fold a stream's tail from, when it starts at chunk number `applied` (0-based)
 * and that chunk is a `user-message`: such a chunk opens a new message whatever came before,
 * and no later chunk touches an earlier message, so
 * `fold(all) = fold(head) ++ applyChunks(foldStateAt(head.length), tail).messages`.
 * (A message without an id of its own is named after the position of the chunk that opened it.)
 */
export function foldStateAt(applied: number): FoldState {
  return { ...initialFoldState, applied };
}

/** Chunks that belong on an AI SDK UI message stream (the user's turn does not). */
export function isAssistantChunk(chunk: StreamChunk): chunk is UIMessageChunk {
  return chunk.type !== 'user-message';
}

/** Folds a whole stream: `fold(chunks)` equals applying the chunks one by one. */
export function fold(chunks: Iterable<StreamChunk>): UIMessage[] {
  return applyChunks(initialFoldState, chunks).messages as UIMessage[];
}

export function applyChunk(state: FoldState, chunk: StreamChunk): FoldState {
  return applyChunks(state, [chunk]);
}

export function applyChunks(state: FoldState, chunks: Iterable<StreamChunk>): FoldState {
  const draft = new Draft(state);
  for (const chunk of chunks) draft.apply(chunk);
  return draft.done();
}

/**
 * Bumped whenever the fold's output for the same chunks changes (a part's shape, a rule):
 * a history folded and stored by another version is not used (ledger/historyFolds.ts).
 */
export const FOLD_VERSION = 1;

/**
 * Where a user turn starts: before its `user-message` chunk, the chunks folded so far
 * (`applied`) and the messages there (`messages`), all final. A `user-message` opens a new
 * message whatever came before and no later chunk touches an earlier one, so
 * `fold(all) = fold(head).messages ++ applyChunks(foldStateAt(head.length), tail).messages`
 * for every head that ends where a turn starts (`foldStateAt`).
 */
export interface TurnStart {
  applied: number;
  messages: number;
}

/** `applyChunks`, also telling where each user turn in the batch starts (ledger/historyFolds.ts cuts there). */
export function applyChunksNotingTurns(state: FoldState, chunks: Iterable<StreamChunk>): { state: FoldState; turns: TurnStart[] } {
  const draft = new Draft(state);
  const turns: TurnStart[] = [];
  for (const chunk of chunks) {
    if (chunk.type === 'user-message') turns.push(draft.settle());
    draft.apply(chunk);
  }
  return { state: draft.done(), turns };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type AnyPart = Mutable<UIPart> & Record<string, unknown>;
type ToolPart = AnyPart & { toolCallId: string; state: ToolState };

function defined<T extends object>(obj: T): T {
  for (const key of Object.keys(obj) as (keyof T)[]) if (obj[key] === undefined) delete obj[key];
  return obj;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function mergeMetadata(a: unknown, b: unknown): unknown {
  if (b === undefined) return a;
  if (!isPlainObject(a) || !isPlainObject(b)) return b;
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = mergeMetadata(a[k], v);
  return out;
}

class Draft {
  private readonly owned = new WeakSet<object>();
  private messages: UIMessage[];
  private open: boolean;
  private text: Record<string, number>;
  private reasoning: Record<string, number>;
  private tools: Record<string, PendingTool>;
  private applied: number;
  /**
   * Tool inputs of the last message whose partial parse is due but not done: toolCallId ->
   * part index and the argument length the parse is of. A batch (history, a frame of live
   * chunks) parses each at most once, at its end, when the message changes or a later
   * chunk of that call needs it; most never are, because `tool-input-available` arrives in
   * the same batch and replaces the input. The result equals parsing at every due delta.
   */
  private unparsed: Map<string, { index: number; length: number }> | null = null;

  constructor(state: FoldState) {
    this.messages = state.messages as UIMessage[];
    this.open = state.open;
    this.text = state.text as Record<string, number>;
    this.reasoning = state.reasoning as Record<string, number>;
    this.tools = state.tools as Record<string, PendingTool>;
    this.applied = state.applied;
  }

  /** Before a new turn: the due partial parses done now (as the turn's new message would), so the messages are final. */
  settle(): TurnStart {
    this.parseDue();
    return { applied: this.applied, messages: this.messages.length };
  }

  done(): FoldState {
    this.parseDue();
    return { messages: this.messages, open: this.open, text: this.text, reasoning: this.reasoning, tools: this.tools, applied: this.applied };
  }

  // ---- copy on write ----------------------------------------------------------------

  private own<T extends object>(v: T): T {
    this.owned.add(v);
    return v;
  }

  private msgs(): UIMessage[] {
    if (!this.owned.has(this.messages)) this.messages = this.own(this.messages.slice());
    return this.messages;
  }

  /** The last message, owned (its parts array too). */
  private last(): UIMessage {
    const ms = this.msgs();
    let m = ms[ms.length - 1]!;
    if (!this.owned.has(m)) {
      m = this.own({ ...m, parts: m.parts.slice() });
      ms[ms.length - 1] = m;
    }
    return m;
  }

  private part<T extends AnyPart>(index: number): T {
    const parts = this.last().parts;
    let p = parts[index] as T;
    if (!this.owned.has(p)) {
      p = this.own({ ...p });
      parts[index] = p as UIPart;
    }
    return p;
  }

  private push(part: UIPart): number {
    const parts = this.last().parts;
    parts.push(this.own(part));
    return parts.length - 1;
  }

  private setIndex(map: 'text' | 'reasoning', id: string, index: number | undefined): void {
    const copy = this.owned.has(this[map]) ? this[map] : this.own({ ...this[map] });
    if (index === undefined) delete copy[id];
    else copy[id] = index;
    this[map] = copy;
  }

  private setTool(id: string, pending: PendingTool): void {
    const copy = this.owned.has(this.tools) ? this.tools : this.own({ ...this.tools });
    copy[id] = pending;
    this.tools = copy;
  }

  private resetMaps(): void {
    this.text = this.own({});
    this.reasoning = this.own({});
    this.tools = this.own({});
  }

  // ---- messages -----------------------------------------------------------------------

  private newMessage(message: UIMessage, open: boolean): void {
    this.parseDue();
    this.msgs().push(this.own(message));
    this.open = open;
    this.resetMaps();
  }

  /** An id for a message the stream did not name: the position of the chunk that opens it (the same in a tail fold). */
  private positionId(): string {
    return `msg-${this.applied - 1}`;
  }

  private ensureAssistant(): void {
    if (!this.open) this.newMessage({ id: this.positionId(), role: 'assistant', parts: [] }, true);
  }

  private error(data: Record<string, unknown>): void {
    this.ensureAssistant();
    const part: DataUIPart = { type: 'data-error', data: defined(data) };
    this.push(part);
  }

  // ---- chunks -------------------------------------------------------------------------

  apply(chunk: StreamChunk): void {
    this.applied++;
    switch (chunk.type) {
      case 'user-message': {
        const parts: UIPart[] = [{ type: 'text', text: chunk.text }];
        for (const f of chunk.files ?? []) parts.push(defined({ type: 'file', url: f.url, mediaType: f.mediaType, filename: f.filename }));
        this.newMessage(defined({ id: chunk.messageId, role: 'user', metadata: chunk.metadata, parts }), false);
        return;
      }
      case 'start': {
        const last = this.messages[this.messages.length - 1];
        if (!(this.open && (chunk.messageId === undefined || chunk.messageId === last?.id))) {
          this.newMessage({ id: chunk.messageId ?? this.positionId(), role: 'assistant', parts: [] }, true);
        }
        if (chunk.messageMetadata !== undefined) this.last().metadata = mergeMetadata(this.last().metadata, chunk.messageMetadata);
        return;
      }
      case 'finish':
      case 'message-metadata':
        if (chunk.messageMetadata !== undefined) {
          this.ensureAssistant();
          this.last().metadata = mergeMetadata(this.last().metadata, chunk.messageMetadata);
        }
        if (chunk.type === 'finish' && this.open) {
          this.open = false;
          this.resetMaps();
        }
        return;
      case 'abort':
        if (this.open) {
          this.open = false;
          this.resetMaps();
        }
        return;
      case 'start-step':
        this.ensureAssistant();
        this.push({ type: 'step-start' });
        return;
      case 'finish-step':
        // Like the AI SDK: a step ends its open text and reasoning blocks.
        if (Object.keys(this.text).length || Object.keys(this.reasoning).length) {
          this.text = this.own({});
          this.reasoning = this.own({});
        }
        return;
      case 'text-start':
      case 'reasoning-start':
        this.startBlock(chunk.type === 'text-start' ? 'text' : 'reasoning', chunk.id, chunk.providerMetadata);
        return;
      case 'text-delta':
      case 'reasoning-delta': {
        const map = chunk.type === 'text-delta' ? 'text' : 'reasoning';
        const index = this.open ? this[map][chunk.id] : undefined;
        const p = this.part<AnyPart & { text: string }>(index ?? this.startBlock(map, chunk.id, undefined));
        p.text += chunk.delta;
        if (chunk.providerMetadata !== undefined) p.providerMetadata = chunk.providerMetadata;
        return;
      }
      case 'text-end':
      case 'reasoning-end': {
        const map = chunk.type === 'text-end' ? 'text' : 'reasoning';
        const index = this.open ? this[map][chunk.id] : undefined;
        if (index === undefined) return;
        const p = this.part(index);
        p.state = 'done';
        if (chunk.providerMetadata !== undefined) p.providerMetadata = chunk.providerMetadata;
        this.setIndex(map, chunk.id, undefined);
        return;
      }
      case 'tool-input-start':
      case 'tool-input-available':
      case 'tool-input-error': {
        if (chunk.type === 'tool-input-start') this.parseDue(chunk.toolCallId);
        else this.unparsed?.delete(chunk.toolCallId);
        const p = this.toolPart(chunk.toolCallId, chunk.toolName, chunk.dynamic);
        if (chunk.title !== undefined) p.title = chunk.title;
        if (chunk.providerExecuted !== undefined) p.providerExecuted = chunk.providerExecuted;
        if (chunk.type === 'tool-input-start') {
          p.state = 'input-streaming';
        } else {
          p.state = chunk.type === 'tool-input-available' ? 'input-available' : 'output-error';
          p.input = chunk.input;
          delete p.rawInput;
          if (chunk.type === 'tool-input-error') p.errorText = chunk.errorText;
        }
        return;
      }
      case 'tool-input-delta': {
        const pending = this.open ? this.tools[chunk.toolCallId] : undefined;
        if (!pending) {
          this.error({ errorText: `tool-input-delta for unknown tool call ${chunk.toolCallId}` });
          return;
        }
        const text = pending.text + chunk.inputTextDelta;
        const scan = scanJsonDelta(pending.scan, chunk.inputTextDelta);
        // Parsed when the arguments just closed (so the final view is exact) or at geometric steps.
        const due = scan.closedTopLevel || partialParseDue(pending.parsedAt, text.length);
        this.setTool(chunk.toolCallId, { index: pending.index, text, parsedAt: due ? text.length : pending.parsedAt, scan });
        const p = this.part<ToolPart>(pending.index);
        p.rawInput = text;
        if (due) (this.unparsed ??= new Map()).set(chunk.toolCallId, { index: pending.index, length: text.length });
        return;
      }
      case 'tool-approval-request':
      case 'tool-output-available':
      case 'tool-output-error':
      case 'tool-output-denied': {
        const pending = this.open ? this.tools[chunk.toolCallId] : undefined;
        if (!pending) {
          this.error({ errorText: `${chunk.type} for unknown tool call ${chunk.toolCallId}` });
          return;
        }
        this.parseDue(chunk.toolCallId);
        const p = this.part<ToolPart>(pending.index);
        if (chunk.type === 'tool-approval-request') {
          p.state = 'approval-requested';
          p.approval = { id: chunk.approvalId };
        } else if (chunk.type === 'tool-output-available') {
          p.state = 'output-available';
          p.output = chunk.output;
          if (chunk.preliminary) p.preliminary = true;
          else delete p.preliminary;
        } else if (chunk.type === 'tool-output-error') {
          p.state = 'output-error';
          p.errorText = chunk.errorText;
          if (chunk.errorCode) p.errorCode = chunk.errorCode;
          else delete p.errorCode;
        } else {
          p.state = 'output-denied';
        }
        return;
      }
      case 'source-url':
      case 'source-document':
      case 'file':
        this.ensureAssistant();
        this.push(defined({ ...chunk }) as UIPart);
        return;
      case 'error':
        this.error({ errorText: chunk.errorText, errorType: chunk.errorType, errorCode: chunk.errorCode });
        return;
      default:
        if (typeof chunk.type === 'string' && chunk.type.startsWith('data-')) this.data(chunk);
      // Unknown chunk types are skipped: a newer writer must not break an older reader.
    }
  }

  /** Does the due partial parses of the last message's tool inputs (of one call, or all). */
  private parseDue(toolCallId?: string): void {
    const due = this.unparsed;
    if (!due?.size) return;
    if (toolCallId === undefined) {
      for (const at of due.values()) this.parseInput(at.index, at.length);
      due.clear();
      return;
    }
    const at = due.get(toolCallId);
    if (!at) return;
    due.delete(toolCallId);
    this.parseInput(at.index, at.length);
  }

  /** The live view of a tool's arguments: its streamed text up to `length`, parsed as far as it goes. */
  private parseInput(index: number, length: number): void {
    const p = this.part<ToolPart>(index);
    const input = parsePartialJson((p.rawInput as string).slice(0, length));
    if (input === undefined) delete p.input;
    else p.input = input;
  }

  /** Opens a text or reasoning block and returns its part index. */
  private startBlock(map: 'text' | 'reasoning', id: string, providerMetadata: unknown): number {
    this.ensureAssistant();
    // Like the AI SDK, a reasoning part keeps its block id (a text part does not).
    const part = map === 'reasoning' ? { type: map, id, text: '', state: 'streaming', providerMetadata } : { type: map, text: '', state: 'streaming', providerMetadata };
    const index = this.push(defined(part) as UIPart);
    this.setIndex(map, id, index);
    return index;
  }

  private toolPart(toolCallId: string, toolName: string, dynamic: boolean | undefined): ToolPart {
    this.ensureAssistant();
    const pending = this.tools[toolCallId];
    if (pending) return this.part<ToolPart>(pending.index);
    const part = dynamic
      ? { type: 'dynamic-tool' as const, toolName, toolCallId, state: 'input-streaming' as const }
      : { type: `tool-${toolName}` as const, toolCallId, state: 'input-streaming' as const };
    const index = this.push(part);
    this.setTool(toolCallId, { index, text: '', parsedAt: 0, scan: initialJsonScan });
    return this.last().parts[index] as ToolPart;
  }

  private data(chunk: Extract<UIMessageChunk, { type: `data-${string}` }>): void {
    if (chunk.transient) return;
    this.ensureAssistant();
    const parts = this.last().parts;
    let index = -1;
    if (chunk.id !== undefined) {
      for (let i = parts.length - 1; i >= 0; i--) {
        const p = parts[i] as DataUIPart;
        if (p.type === chunk.type && p.id === chunk.id) {
          index = i;
          break;
        }
      }
    }
    let data: unknown = chunk.data ?? null;
    if (chunk.patch) {
      const base = index >= 0 ? (parts[index] as DataUIPart).data : data;
      try {
        data = applyJsonPatch(base, chunk.patch);
      } catch (error) {
        const what = `${chunk.type}${chunk.id === undefined ? '' : ` "${chunk.id}"`}`;
        this.error({ errorText: `patch of ${what} failed (${(error as Error).message}); the part keeps its previous data` });
        return;
      }
    }
    if (index >= 0) this.part<AnyPart>(index).data = data;
    else this.push(defined({ type: chunk.type, id: chunk.id, data }));
  }
}
