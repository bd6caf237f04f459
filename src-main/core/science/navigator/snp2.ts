import { applyPatch, deepClone, type Operation } from 'fast-json-patch';
import { errorMessage } from '../../shared/errorMessage';

/**
 * The SNP2 merge (Science Navigator Protocol 2, seeds/bohrium-mentor-snp2.txt), pure: no
 * I/O, no timers. The state is kept per answer id and layout, and inside that per message
 * id (the seed: "the same messageId is the same message"):
 *
 * - `append` creates the message with its full initial `content`;
 * - `delta` appends the text of each `actionList` key (`text += content.text`);
 * - `patch` applies `uiInfo.patches` (RFC 6902, fast-json-patch) to that message's
 *   `content`; paths are relative to `content` (`/text`, never `/content/text`).
 *
 * A batch of patches applies whole or not at all (on a copy). A batch that fails (a patch
 * before its message's append, a path that does not exist) is named in `issues` and the
 * stream goes on; a failed batch is retried after each later batch that succeeds on the
 * same message, because the thought tree's status updates can arrive before the node they
 * update (the seed's own script reorders them for that reason). What is still unapplied
 * when the answer ends stays in `issues`.
 *
 * `system.event.type` says where an answer is: start, streaming, finish (every message of
 * that answer id is complete), error (the answer failed, with its message).
 */

export type Snp2Action = 'append' | 'delta' | 'patch';
export type Snp2Lifecycle = 'start' | 'streaming' | 'finish' | 'error';

/** One event as the stream (or one history entry) delivers it. Untrusted JSON: every field is checked. */
export interface Snp2Event {
  sessionId?: string;
  channel?: {
    answerId?: string;
    messageId?: string;
    role?: string;
    uiInfo?: {
      type?: string;
      layout?: string;
      subType?: string;
      content?: unknown;
      patches?: unknown;
      actionList?: unknown;
    } | null;
  };
  system?: { event?: { type?: string; message?: string } };
}

export interface Snp2Message {
  messageId: string;
  layout: string;
  subType: string;
  role: string;
  content: Record<string, unknown>;
  /** Patch batches that failed, kept to retry after the next batch that succeeds here. */
  parked: { ops: Operation[]; reason: string }[];
  /** How many patch operations were applied to this message. */
  patched: number;
  /** False for a placeholder holding patches that came before the message's append. */
  created: boolean;
}

export interface Snp2Answer {
  answerId: string;
  /** Messages by layout, then by message id, in arrival order. */
  layouts: Map<string, Map<string, Snp2Message>>;
  lifecycle: Snp2Lifecycle;
  /** The `system.event.message` of an error event. */
  error: string | null;
}

/** What one event changed, so a caller can stream only that. */
export interface Snp2Change {
  answerId: string;
  layout: string;
  messageId: string;
  action: Snp2Action;
  /** The text appended by a delta or carried by an append (per key). */
  appended?: Record<string, string>;
  /** The operations applied by a patch (including parked ones that now applied). */
  ops?: Operation[];
}

export interface Snp2Step {
  changes: Snp2Change[];
  /** Problems with this event, named (the merge goes on). */
  issues: string[];
  lifecycle?: { answerId: string | null; type: Snp2Lifecycle; message?: string };
}

const LIFECYCLES = new Set<Snp2Lifecycle>(['start', 'streaming', 'finish', 'error']);
const DEFAULT_ANSWER = 'default';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The actions of an event: each `{key, action}` of `actionList`, unknown actions dropped. */
function actionsOf(list: unknown): { key: string; action: Snp2Action }[] {
  if (!Array.isArray(list)) return [];
  const out: { key: string; action: Snp2Action }[] = [];
  for (const a of list) {
    if (!isObj(a)) continue;
    const action = a.action;
    if (action === 'append' || action === 'delta' || action === 'patch') out.push({ key: str(a.key), action });
  }
  return out;
}

/** The patch operations of an event, or a reason they cannot be used. */
function opsOf(patches: unknown): { ops: Operation[] } | { problem: string } {
  if (!Array.isArray(patches)) return { problem: 'uiInfo.patches is not an array' };
  for (const [i, p] of patches.entries()) {
    if (!isObj(p) || typeof p.op !== 'string' || typeof p.path !== 'string') return { problem: `uiInfo.patches[${i}] is not an operation {op, path}` };
  }
  return { ops: patches as Operation[] };
}

export class Snp2Merger {
  readonly answers = new Map<string, Snp2Answer>();
  /** Every problem met so far, in order. */
  readonly issues: string[] = [];

  /** The answer ids in the order they first appeared. */
  answerIds(): string[] {
    return [...this.answers.keys()];
  }

  /** True once every answer seen has finished or failed (and at least one was seen). */
  settled(): boolean {
    return this.answers.size > 0 && [...this.answers.values()].every((a) => a.lifecycle === 'finish' || a.lifecycle === 'error');
  }

  apply(event: Snp2Event): Snp2Step {
    const step: Snp2Step = { changes: [], issues: [] };
    const channel = isObj(event.channel) ? event.channel : {};
    const answerId = str(channel.answerId) || null;
    const raw = str(isObj(event.system) && isObj(event.system.event) ? event.system.event.type : '');
    const ui = isObj(channel.uiInfo) ? channel.uiInfo : null;
    // An `error` message (uiInfo.type "error") fails its answer like an error event does.
    const uiError = ui && str(ui.type) === 'error' ? (isObj(ui.content) ? str(ui.content.text) || str(ui.content.message) : '') || 'the navigator sent an error message' : null;
    // "end" is an older name of "finish" (public readers of the stream accept both).
    const type = uiError ? 'error' : raw === 'end' ? 'finish' : raw;

    if (ui && !uiError && str(channel.role) !== 'user') this.merge(answerId ?? DEFAULT_ANSWER, channel, ui, step);

    if (LIFECYCLES.has(type as Snp2Lifecycle)) {
      const lifecycle = type as Snp2Lifecycle;
      const message = lifecycle === 'error' ? uiError ?? (str((event.system?.event as { message?: unknown }).message) || 'the navigator reported an error without a message') : undefined;
      const targets = answerId ? [this.answerOf(answerId)] : lifecycle === 'finish' || lifecycle === 'error' ? [...this.answers.values()] : [];
      for (const a of targets) {
        // A finished or failed answer stays so: a late "streaming" does not reopen it.
        if (a.lifecycle === 'finish' || a.lifecycle === 'error') continue;
        a.lifecycle = lifecycle;
        if (message) a.error = message;
      }
      step.lifecycle = { answerId, type: lifecycle, ...(message ? { message } : {}) };
      if (lifecycle === 'finish' || lifecycle === 'error') {
        for (const a of targets) this.reportParked(a, step);
      }
    }
    this.issues.push(...step.issues);
    return step;
  }

  private answerOf(answerId: string): Snp2Answer {
    let a = this.answers.get(answerId);
    if (!a) this.answers.set(answerId, (a = { answerId, layouts: new Map(), lifecycle: 'start', error: null }));
    return a;
  }

  private merge(answerId: string, channel: NonNullable<Snp2Event['channel']>, ui: NonNullable<NonNullable<Snp2Event['channel']>['uiInfo']>, step: Snp2Step): void {
    const layout = str(ui.layout) || 'unknown';
    const messageId = str(channel.messageId) || `${layout}:${str(ui.subType)}`;
    const where = `message ${messageId} (answer ${answerId}, layout ${layout})`;
    const actions = actionsOf(ui.actionList);
    const hasPatches = Array.isArray(ui.patches) && ui.patches.length > 0;
    if (!actions.length && !hasPatches) return;
    const answer = this.answerOf(answerId);
    let messages = answer.layouts.get(layout);
    if (!messages) answer.layouts.set(layout, (messages = new Map()));
    const content = isObj(ui.content) ? ui.content : {};

    if (actions.some((a) => a.action === 'append')) {
      const existing = messages.get(messageId);
      if (existing?.created) {
        // A second append of one message (a resent first packet): it carries the full content again.
        step.issues.push(`${where}: append of a message that already exists; its content was replaced by the new one`);
      }
      const message: Snp2Message = { messageId, layout, subType: str(ui.subType), role: str(channel.role) || 'assistant', content: deepClone(content) as Record<string, unknown>, parked: existing?.parked ?? [], patched: 0, created: true };
      messages.set(messageId, message);
      const appended: Record<string, string> = {};
      for (const a of actions) if (a.action === 'append' && a.key && typeof content[a.key] === 'string') appended[a.key] = content[a.key] as string;
      step.changes.push({ answerId, layout, messageId, action: 'append', appended });
      // Patches that arrived before this append can apply now.
      this.retryParked(message, answerId, step);
    }

    const deltas = actions.filter((a) => a.action === 'delta' && a.key);
    if (deltas.length) {
      let message = messages.get(messageId);
      if (!message?.created) {
        // The seed's own reader accumulates text without an append first; so do we, and say so.
        step.issues.push(`${where}: delta before append; the message was created from the delta`);
        message = { messageId, layout, subType: str(ui.subType), role: str(channel.role) || 'assistant', content: {}, parked: message?.parked ?? [], patched: 0, created: true };
        messages.set(messageId, message);
      }
      const appended: Record<string, string> = {};
      for (const { key } of deltas) {
        const piece = content[key];
        if (typeof piece !== 'string') {
          step.issues.push(`${where}: delta of "${key}" carries no text`);
          continue;
        }
        const before = message.content[key];
        message.content[key] = (typeof before === 'string' ? before : '') + piece;
        appended[key] = piece;
      }
      step.changes.push({ answerId, layout, messageId, action: 'delta', appended });
    }

    if (hasPatches) {
      const parsed = opsOf(ui.patches);
      if ('problem' in parsed) {
        step.issues.push(`${where}: ${parsed.problem}; the event was skipped`);
        return;
      }
      const message = messages.get(messageId);
      if (!message) {
        step.issues.push(`${where}: patch before append; the operations are kept and applied if the append arrives`);
        // A placeholder holds the parked batch until the append creates the message.
        messages.set(messageId, { messageId, layout, subType: str(ui.subType), role: str(channel.role) || 'assistant', content: {}, parked: [{ ops: parsed.ops, reason: 'patch before append' }], patched: 0, created: false });
        return;
      }
      if (!message.created) {
        step.issues.push(`${where}: patch before append; the operations are kept and applied if the append arrives`);
        message.parked.push({ ops: parsed.ops, reason: 'patch before append' });
        return;
      }
      const error = this.applyBatch(message, parsed.ops);
      if (error) {
        step.issues.push(`${where}: patch failed (${error}); the message keeps its previous content and the operations are retried after the next patch`);
        message.parked.push({ ops: parsed.ops, reason: error });
        return;
      }
      step.changes.push({ answerId, layout, messageId, action: 'patch', ops: parsed.ops });
      this.retryParked(message, answerId, step);
    }
  }

  /** Applies one batch atomically; returns the failure, or null. */
  private applyBatch(message: Snp2Message, ops: Operation[]): string | null {
    try {
      // validate=true: a replace/remove/test on a missing path fails instead of inventing it;
      // banPrototypeModifications: untrusted paths never reach __proto__.
      const result = applyPatch(deepClone(message.content), ops, true, true, true);
      const next = result.newDocument as unknown;
      if (!isObj(next)) return 'the patch would replace the content with a non-object';
      message.content = next;
      message.patched += ops.length;
      return null;
    } catch (error) {
      return errorMessage(error).split('\n')[0]!.slice(0, 300);
    }
  }

  private retryParked(message: Snp2Message, answerId: string, step: Snp2Step): void {
    let progressed = true;
    while (progressed && message.parked.length) {
      progressed = false;
      for (const batch of [...message.parked]) {
        if (this.applyBatch(message, batch.ops) === null) {
          message.parked.splice(message.parked.indexOf(batch), 1);
          step.changes.push({ answerId, layout: message.layout, messageId: message.messageId, action: 'patch', ops: batch.ops });
          progressed = true;
        }
      }
    }
  }

  /** At the end of an answer, what never applied is reported (once). */
  private reportParked(answer: Snp2Answer, step: Snp2Step): void {
    for (const messages of answer.layouts.values()) {
      for (const m of messages.values()) {
        for (const batch of m.parked) {
          step.issues.push(`message ${m.messageId} (answer ${answer.answerId}, layout ${m.layout}): ${batch.ops.length} patch operation(s) never applied (${batch.reason})`);
        }
        m.parked = [];
      }
    }
  }
}

/** The created messages of one answer and layout, in arrival order (placeholders left out). */
export function messagesOf(answer: Snp2Answer, layout: string): Snp2Message[] {
  return [...(answer.layouts.get(layout)?.values() ?? [])].filter((m) => m.created);
}
