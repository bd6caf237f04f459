import { HANDOFF_FIELDS, handoffSchema, type Handoff } from '../../../src-preload/contract/compaction';
import type { Cost, LanguageModelPort, LlmMessage, Usage } from '../llm/types';
import { errorMessage } from '../shared/errorMessage';
import type { LedgerFacts } from './ledgerFacts';

/** The instruction of the summary call: the handoff's fields, as JSON, nothing invented. */
export const SUMMARY_SYSTEM = `You compact the context of a research agent's long session. You receive the earlier handoff (if any), the older turns being removed from the context, and facts from the session ledger. Write the handoff the agent continues from, as one JSON object with exactly these keys:
"objective" (string: what the user asked for, keeping their wording and language),
"constraints" (array of strings: requirements, limits and preferences the user or the tools set),
"decisions" (array: choices made and why),
"done" (array: what has been completed, with the evidence ids (ev_...), artifact version ids and archived sha256 that hold the results),
"inProgress" (array), "blocked" (array: what failed or is waiting, and why),
"nextMove" (string: the single next action),
"keyArtifacts" (array: artifact versions and archived results the work depends on),
"activeKernelGeneration" (string: copy the ledger's kernel line).
Keep identifiers (ev_..., av_..., sha256, file paths, accession numbers) exactly. Do not invent results. Reply with the JSON object only.`;

/** Keys the model may spell as the design does ("In progress", "Next Move", "active_kernel_generation"). */
const KEY_BY_NORMAL = new Map(HANDOFF_FIELDS.flatMap((f) => [[f.key.toLowerCase(), f.key], [f.label.toLowerCase().replace(/[^a-z]/g, ''), f.key]] as const));

function normaliseKeys(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // Defined, not assigned: a "__proto__" key stays a key (and is refused as unknown), never the object's prototype.
    Object.defineProperty(out, KEY_BY_NORMAL.get(k.toLowerCase().replace(/[^a-z]/g, '')) ?? k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  // A single string where a list is expected is a list of one.
  for (const f of HANDOFF_FIELDS) {
    const v = out[f.key];
    if (typeof v === 'string' && Array.isArray(handoffShape[f.key])) out[f.key] = v.trim() ? [v] : [];
  }
  return out;
}

const handoffShape: Record<keyof Handoff, unknown> = {
  objective: '',
  constraints: [],
  decisions: [],
  done: [],
  inProgress: [],
  blocked: [],
  nextMove: '',
  keyArtifacts: [],
  activeKernelGeneration: '',
};

/** The model's reply as a handoff, or why it is not one. */
export function parseHandoff(reply: string): { ok: true; handoff: Handoff } | { ok: false; error: string } {
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  if (start < 0 || end <= start) return { ok: false, error: 'the summary reply holds no JSON object' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply.slice(start, end + 1));
  } catch (error) {
    return { ok: false, error: `the summary reply is not valid JSON (${errorMessage(error)})` };
  }
  const result = handoffSchema.safeParse(normaliseKeys(parsed));
  if (!result.success) {
    return { ok: false, error: `the summary does not fit the handoff: ${result.error.issues.map((i) => `${i.path.join('.') || '(object)'}: ${i.message}`).join('; ')}` };
  }
  return { ok: true, handoff: result.data };
}

const cap = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** One older message as summary input: bounded, so the summary call itself fits the window. */
function transcriptLine(m: LlmMessage, maxChars: number): string {
  if (m.role === 'assistant') {
    const calls = (m.toolCalls ?? []).map((c) => `  -> ${c.name}(${cap(c.rawArguments, 300)})`).join('\n');
    return `[assistant] ${cap(m.content, maxChars)}${calls ? `\n${calls}` : ''}`;
  }
  if (m.role === 'tool') return `[tool ${m.toolName}${m.isError ? ' error' : ''}] ${cap(m.content, maxChars)}`;
  return `[user] ${cap(m.content, maxChars)}`;
}

/** The older turns as text, each message cut to its share of `maxChars` (the oldest keep least when over). */
export function transcript(older: readonly LlmMessage[], maxChars: number): string {
  const per = Math.max(200, Math.floor(maxChars / Math.max(1, older.length)));
  const lines = older.map((m) => transcriptLine(m, per));
  let text = lines.join('\n');
  if (text.length > maxChars) text = `[… the oldest ${text.length - maxChars} characters are left out …]\n${text.slice(-maxChars)}`;
  return text;
}

const factsText = (f: LedgerFacts) =>
  [
    `Kernel: ${f.activeKernelGeneration}`,
    `Artifacts (newest versions): ${f.artifacts.length ? f.artifacts.join('; ') : 'none'}`,
    `Calls this run: ${f.calls.length ? f.calls.join(', ') : 'none'}`,
    `Archived results this run: ${f.archived.length ? f.archived.join('; ') : 'none'}`,
  ].join('\n');

/**
 * Asks the same provider for the handoff. Resolves with the handoff, or with the reason
 * it could not be used (the caller then builds the fallback); never throws.
 */
export async function summarise(
  model: LanguageModelPort,
  input: { previous: Handoff | null; older: readonly LlmMessage[]; facts: LedgerFacts; maxInputChars: number; signal?: AbortSignal },
): Promise<({ ok: true; handoff: Handoff } | { ok: false; error: string }) & { usage?: Usage; cost?: Cost | null }> {
  const content = [
    input.previous ? `Earlier handoff:\n${JSON.stringify(input.previous, null, 1)}` : 'Earlier handoff: none (first compaction).',
    `Ledger facts:\n${factsText(input.facts)}`,
    `Older turns being removed:\n${transcript(input.older, input.maxInputChars)}`,
  ].join('\n\n');
  let text = '';
  let spent: { usage?: Usage; cost?: Cost | null } = {};
  try {
    for await (const part of model.stream({ system: SUMMARY_SYSTEM, messages: [{ role: 'user', content }], maxOutputTokens: 4_000, ...(input.signal ? { signal: input.signal } : {}) })) {
      if (part.type === 'text-delta') text += part.text;
      else if (part.type === 'finish') spent = { usage: part.usage, cost: part.cost };
      else if (part.type === 'error') return { ok: false, error: `the summary call failed: ${part.error.message}` };
      else if (part.type === 'tool-call-start') return { ok: false, error: 'the summary reply called a tool instead of writing the handoff', ...spent };
    }
  } catch (error) {
    return { ok: false, error: `the summary call failed: ${errorMessage(error)}` };
  }
  return { ...parseHandoff(text), ...spent };
}

/**
 * The handoff built from the ledger and the history alone, when the summary call failed
 * or was invalid: deterministic, and never wrong about what ran (it says less, not more).
 */
export function fallbackHandoff(input: { request: string; previous: Handoff | null; older: readonly LlmMessage[]; facts: LedgerFacts }): Handoff {
  const { facts, previous } = input;
  const done: string[] = [...(previous?.done ?? [])];
  const blocked: string[] = [...(previous?.blocked ?? [])];
  for (const m of input.older) {
    if (m.role === 'tool') (m.isError ? blocked : done).push(cap(`${m.toolName}${m.isError ? ' failed' : ''}: ${m.content.split('\n')[0] ?? ''}`, 300));
    else if (m.role === 'user' && m.content.startsWith('Cell result')) {
      const failed = m.content.startsWith('Cell result (error)');
      (failed ? blocked : done).push(cap(`cell${failed ? ' failed' : ''}: ${m.content.split('\n').slice(1, 3).join(' ')}`, 300));
    }
  }
  const keep = (xs: string[], n: number) => xs.slice(-n).map((x) => cap(x, 2_000));
  const lastAssistant = [...input.older].reverse().find((m) => m.role === 'assistant' && m.content.trim());
  return {
    objective: cap(previous?.objective ?? (input.request.trim() || 'Continue the user\'s request.'), 4_000),
    constraints: keep(previous?.constraints ?? [], 30),
    decisions: keep([...(previous?.decisions ?? []), ...(lastAssistant ? [`Last reasoning before this point: ${cap(lastAssistant.content.trim(), 500)}`] : [])], 40),
    done: keep([...done, ...(facts.calls.length ? [`Calls so far this run: ${facts.calls.join(', ')}`] : [])], 60),
    inProgress: keep(previous?.inProgress ?? [], 30),
    blocked: keep(blocked, 30),
    nextMove: 'Continue from the most recent turns below; recall an archived result by its sha256 when its preview is not enough.',
    // The newest archived results only: every one stays recallable by the hash in its preview.
    keyArtifacts: keep([...facts.artifacts.slice(-40), ...facts.archived.slice(-10).map((a) => `archived ${a}`)], 60),
    activeKernelGeneration: cap(facts.activeKernelGeneration, 1_000),
  };
}

/**
 * The handoff as the model reads it each turn. What the ledger knows for certain (the
 * kernel generation, the artifacts' newest versions) is read again at every render, so a
 * kernel restart or a new version after the compaction is never reported stale.
 */
export function renderHandoff(handoff: Handoff, request: string, facts: LedgerFacts, compactions: number): string {
  const list = (xs: readonly string[]) => (xs.length ? xs.map((x) => `- ${x}`).join('\n') : '- (none)');
  const keyArtifacts = [...new Set([...facts.artifacts, ...handoff.keyArtifacts])];
  const request_ = request.trim() ? `The user's request, verbatim:\n${cap(request.trim(), 4_000)}` : '';
  return [
    `[Earlier turns summarised (${compactions} compaction${compactions === 1 ? '' : 's'}). The full history is in the session ledger; archived results can be read with recall.]`,
    request_,
    `Objective: ${handoff.objective}`,
    `Constraints:\n${list(handoff.constraints)}`,
    `Decisions:\n${list(handoff.decisions)}`,
    `Done:\n${list(handoff.done)}`,
    `In progress:\n${list(handoff.inProgress)}`,
    `Blocked:\n${list(handoff.blocked)}`,
    `Next move: ${handoff.nextMove}`,
    `Key artifacts:\n${list(keyArtifacts)}`,
    `Active kernel generation (from the ledger, now): ${facts.activeKernelGeneration}`,
  ]
    .filter(Boolean)
    .join('\n\n');
}

/** How much of a carried handoff a later run reads (about 1,500 tokens). */
export const CARRIED_HANDOFF_CHARS = 6_000;

/**
 * The latest handoff of an earlier run that ended without an answer (stopped, failed, out of
 * turns), as the next run reads it among the earlier turns: that run's tool traffic is not
 * in a later run's context, so without it "continue" would start from the prose alone.
 * Bounded; the kernel line is the one recorded then (the ledger's current one is re-read once
 * the new run compacts).
 */
export function carriedHandoffNote(handoff: Handoff): string {
  const list = (xs: readonly string[]) => (xs.length ? xs.map((x) => `- ${cap(x, 400)}`).join('\n') : '- (none)');
  const text = [
    "[Note: this run's earlier turns were summarised before it ended without an answer. Its latest handoff, as it stood then (results named here can be recalled or re-read; check a kernel's variables before relying on them):]",
    `Objective: ${cap(handoff.objective, 800)}`,
    `Constraints:\n${list(handoff.constraints)}`,
    `Decisions:\n${list(handoff.decisions)}`,
    `Done:\n${list(handoff.done)}`,
    `In progress:\n${list(handoff.inProgress)}`,
    `Blocked:\n${list(handoff.blocked)}`,
    `Next move: ${cap(handoff.nextMove, 600)}`,
    `Key artifacts:\n${list(handoff.keyArtifacts)}`,
    `Kernel then: ${cap(handoff.activeKernelGeneration, 300)}`,
  ].join('\n');
  return cap(text, CARRIED_HANDOFF_CHARS);
}
