import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { dataChunk } from '../../../../src-preload/contract/dataParts';
import type { ThinkingStepData } from '../../../../src-preload/contract/dataParts';
import type { EvidenceRecord } from '../../../../src-preload/contract/evidence';
import { evidenceLabel } from '../../../../src-preload/contract/evidenceLabel';
import type { EvidenceStore } from '../../records/evidenceStore';
import { registerSecrets } from '../../security/secrets';
import { authorsField, compactCitation, displayAuthor } from '../../science/citation';
import { answerText, readAnswer, type NavigatorAnswer, type NavigatorReference, type ThinkingNode } from '../../science/navigator/answer';
import { HOW_TO_GET_A_KEY, NavigatorClient, NavigatorError, type FetchLike, type NavigatorResult } from '../../science/navigator/client';
import { defineTool, type Tool, type ToolContext } from '../define';

/**
 * `science_navigator`: asks Bohrium's Science Navigator (an external science agent that
 * searches and reads the literature) and brings its answer into the run: the thought
 * chain as `data-thinking-step` parts while it streams, the answer text into the tool
 * card (preliminary output), each `used` reference as citable evidence (with the sha256
 * of the exact bytes it arrived as), the `all` results as further evidence, and the
 * suggested questions for the final answer. A cell reaches it as `host.navigator(...)`
 * or `host.science.navigator(...)`.
 */

export interface NavigatorToolOptions {
  /** The access key: OPENAI4S_BOHRIUM_ACCESS_KEY (environment or .env), else the one stored in Settings. */
  key: () => string | undefined | null;
  /** OPENAI4S_BOHRIUM_BASE_URL, if set. */
  baseUrl: () => string | undefined;
  evidence: () => EvidenceStore;
  fetch?: FetchLike;
  stallMs?: number;
  historyPauseMs?: number;
  now?: () => Date;
}

export const navigatorInput = z
  .object({
    question: z.string().trim().min(3).max(2000).describe('The research question, in full sentences.'),
    discipline: z.string().regex(/^[A-Za-z ]{1,40}$/).optional().describe('All (default), Biology, Chemistry, Physics, Medicine...'),
    journal_type: z.enum(['foreign', 'chinese']).optional(),
  })
  .strict();

/** How many `all` results become evidence (a deep answer can cite hundreds of sources). */
const MAX_ALL_EVIDENCE = 200;
/** How much new answer text is gathered before the tool card is updated again. */
const PRELIMINARY_STEP_CHARS = 200;

const STEP_STATUS: Record<number, ThinkingStepData['status']> = { 0: 'in_progress', 1: 'completed', 2: 'failed' };

/** The thought tree as thinking steps: ids by position, children naming their parent. */
export function thinkingSteps(tree: ThinkingNode, prefix: string, finished: boolean, toolCallId?: string): ThinkingStepData[] {
  const out: ThinkingStepData[] = [];
  const walk = (node: ThinkingNode, id: string, parentId: string | undefined) => {
    const status = node.status === null ? (finished ? 'completed' : 'in_progress') : (STEP_STATUS[node.status] ?? 'in_progress');
    const items = [node.description, ...node.items].filter(Boolean);
    out.push({
      id,
      title: node.title || node.type || 'Step',
      status: finished && status === 'in_progress' ? 'completed' : status,
      ...(items.length ? { items } : {}),
      ...(parentId ? { parentId } : {}),
      kind: 'activity',
      ...(toolCallId ? { toolCallId } : {}),
    });
    node.children.forEach((child, i) => walk(child, `${id}.${i + 1}`, id));
  };
  walk(tree, prefix, undefined);
  return out;
}

function referenceLine(ref: NavigatorReference & { evidenceId?: string }): string {
  const who = ref.authors.length ? `${ref.authors.slice(0, 3).join(', ')}${ref.authors.length > 3 ? ' et al.' : ''}` : '';
  const where = [ref.journal, ref.year ?? ''].filter(Boolean).join(' ');
  return [`[${ref.evidenceId ?? 'not recorded'}]`, ref.title, who && `— ${who}`, where && `(${where})`, ref.doi && `doi:${ref.doi}`, !ref.doi && ref.url].filter(Boolean).join(' ');
}

function recordReference(store: EvidenceStore, sessionId: string, ref: NavigatorReference, role: 'reference' | 'search_result', meta: { navigatorSession: string; answerId: string; retrievedAt: string }): EvidenceRecord {
  const envelope: Record<string, unknown> = {
    database: 'bohrium_navigator',
    role,
    resource_id: ref.resourceId,
    type: ref.kind,
    title: ref.title,
    authors: ref.authors,
    journal: ref.journal || null,
    year: ref.year,
    doi: ref.doi || null,
    url: ref.url || null,
    source: ref.source || null,
    navigator_session: meta.navigatorSession,
    answer_id: meta.answerId,
    retrieved_at: meta.retrievedAt,
    // The exact bytes of the record as the navigator sent them.
    sha256: ref.receipt?.sha256 ?? null,
    byte_length: ref.receipt?.byteLength ?? null,
    received_via: ref.receipt?.source ?? null,
  };
  // The authors with family and given names apart, for a bibliography ("Frangoul, Haydar" in RIS).
  const citation = compactCitation(authorsField(ref.authors.map(displayAuthor)));
  if (citation) envelope.citation = citation;
  const head = evidenceLabel({ kind: 'retrieval', title: ref.title, envelope });
  return store.record({
    sessionId,
    kind: 'retrieval',
    key: ['bohrium_navigator', role, ref.resourceId, ref.receipt?.sha256 ?? meta.answerId].join('|'),
    title: ref.title,
    snippet: [head, ref.authors.slice(0, 6).join(', '), ref.doi ? `doi:${ref.doi}` : ref.url, ref.snippet].filter(Boolean).join('\n'),
    envelope,
  });
}

/** Emits the live view: changed thinking steps, and the answer text as preliminary output. */
function liveView(ctx: ToolContext) {
  const sent = new Map<string, string>();
  let textSent = -PRELIMINARY_STEP_CHARS;
  // A tool call's id is unique in its run; a cell may ask twice, so its calls get a suffix of their own.
  const prefix = ctx.toolCallId ? `nav-${ctx.toolCallId.slice(-24)}` : `nav-${(ctx.cell?.cellId ?? 'call').slice(-16)}-${randomUUID().slice(0, 8)}`;
  const steps = (answers: NavigatorAnswer[], final: boolean) => {
    answers.forEach((a, i) => {
      if (!a.thinking) return;
      for (const step of thinkingSteps(a.thinking, `${prefix}-${i + 1}`, final && a.status !== 'incomplete', ctx.toolCallId)) {
        const json = JSON.stringify(step);
        if (sent.get(step.id) === json) continue;
        sent.set(step.id, json);
        ctx.emit?.(dataChunk('thinking-step', step.id, step));
      }
    });
  };
  // The text is cheap to read; the answers (references) are read only when an update is sent.
  const preliminary = (text: string, answers: () => NavigatorAnswer[]) => {
    if (!ctx.emit || !ctx.toolCallId) return;
    if (text.length - textSent < PRELIMINARY_STEP_CHARS) return;
    textSent = text.length;
    const references = answers().reduce((n, a) => n + a.used.length, 0);
    ctx.emit({ type: 'tool-output-available', toolCallId: ctx.toolCallId, output: { status: 'streaming', text, references }, preliminary: true });
  };
  return { steps, preliminary };
}

export function navigatorTool(options: NavigatorToolOptions): Tool {
  return defineTool({
    name: 'science_navigator',
    description:
      "Ask Bohrium's Science Navigator, an external agent that searches and reads the literature, a research question. Returns its answer with references as citable evidence ids. Needs a Bohrium access key.",
    input: navigatorInput,
    sideEffect: 'network',
    // The user configured the key for this service; the question goes only to that host.
    defaultPolicy: 'allow',
    onDemand: true,
    hostMethods: ['navigator', 'science.navigator'],
    maxOutputBytes: 48 * 1024,
    resourceKeys: () => ['science:bohrium_navigator'],
    target: () => 'bohrium_navigator',
    async execute(a, ctx) {
      const key = options.key()?.trim();
      if (!key) throw new NavigatorError('not_configured', `no access key is set. ${HOW_TO_GET_A_KEY}`);
      // Never stored or printed anywhere, even if the service echoes it back.
      registerSecrets([key]);
      const client = new NavigatorClient({
        key,
        baseUrl: options.baseUrl(),
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.stallMs !== undefined ? { stallMs: options.stallMs } : {}),
        ...(options.historyPauseMs !== undefined ? { historyPauseMs: options.historyPauseMs } : {}),
      });
      const live = liveView(ctx);
      const result: NavigatorResult = await client.ask(
        { question: a.question, ...(a.discipline ? { discipline: a.discipline } : {}), ...(a.journal_type ? { journalType: a.journal_type } : {}) },
        ctx.signal,
        (step, merger, receipts) => {
          if (!ctx.emit) return;
          const touched = new Set(step.changes.map((c) => c.layout));
          if (!touched.size && !step.lifecycle) return;
          // A text delta arrives many times a second: the whole answers (hundreds of references) are read only when needed.
          const ids = merger.answerIds();
          let answers: NavigatorAnswer[] | null = null;
          const read = () => (answers ??= ids.map((id) => readAnswer(merger.answers.get(id)!, receipts)));
          if (touched.has('preprocessor') || step.lifecycle) live.steps(read(), false);
          if (touched.has('main')) live.preliminary(ids.map((id) => answerText(merger.answers.get(id)!)).join('\n\n'), read);
        },
      );
      live.steps(result.answers, true);
      // Nothing to show for the question: an error, not an empty success the model might cite.
      if (!result.answers.some((x) => x.text || x.used.length)) {
        const why = result.answers.map((x) => x.error).filter(Boolean).join('; ') || (result.streamProblem ?? 'no answer was produced');
        throw new NavigatorError('upstream_error', `session ${result.sessionId} produced no answer (${why}). Retry later or rephrase the question.`);
      }
      return recordAndReport(a.question, result, ctx, options);
    },
  });
}

function recordAndReport(question: string, result: NavigatorResult, ctx: ToolContext, options: NavigatorToolOptions) {
  const store = options.evidence();
  const retrievedAt = (options.now?.() ?? new Date()).toISOString();
  const sections: string[] = [];
  const answers = result.answers.map((answer) => {
    const meta = { navigatorSession: result.sessionId, answerId: answer.answerId, retrievedAt };
    const used = answer.used.map((ref) => ({ ...ref, evidenceId: recordReference(store, ctx.sessionId, ref, 'reference', meta).id }));
    for (const ref of answer.all.slice(0, MAX_ALL_EVIDENCE)) recordReference(store, ctx.sessionId, ref, 'search_result', meta);
    // The navigator's answer text itself, so a claim that reports what it said can cite it.
    const textHash = createHash('sha256').update(answer.text, 'utf8').digest('hex');
    const answerEvidence = answer.text
      ? store.record({
          sessionId: ctx.sessionId,
          kind: 'retrieval',
          key: `bohrium_navigator|answer|${result.sessionId}|${answer.answerId}|${textHash}`,
          title: `Science Navigator answer: ${question.slice(0, 200)}`,
          snippet: answer.text.replace(/\s+/g, ' ').trim(),
          envelope: { database: 'bohrium_navigator', role: 'answer', navigator_session: result.sessionId, answer_id: answer.answerId, status: answer.status, retrieved_at: retrievedAt, sha256: textHash, received_via: result.via },
        }).id
      : null;
    sections.push(
      [
        `Answer ${answer.answerId} (${answer.status}${answer.error ? `: ${answer.error}` : ''})${answerEvidence ? ` — evidence ${answerEvidence}` : ''}`,
        answer.text || '(no answer text)',
        used.length ? `References (cite these evidence ids):\n${used.map((r, i) => `${i + 1}. ${referenceLine(r)}`).join('\n')}` : 'References: none.',
        answer.all.length ? `All search results: ${answer.all.length} (recorded as evidence, not listed).` : '',
        answer.suggestions.length ? `Suggested follow-up questions (they join your answer's suggestions):\n${answer.suggestions.map((q) => `- ${q}`).join('\n')}` : '',
      ]
        .filter(Boolean)
        .join('\n\n'),
    );
    return {
      answerId: answer.answerId,
      status: answer.status,
      error: answer.error,
      evidenceId: answerEvidence,
      thinking: answer.thinking,
      references: used.map(({ receipt, ...r }) => ({ ...r, sha256: receipt?.sha256 ?? null })),
      allResults: answer.all.length,
      suggestions: answer.suggestions,
    };
  });
  const head = [
    `Science Navigator session ${result.sessionId}${result.via === 'history' ? ` (the stream was interrupted: ${result.streamProblem}; the result was read from history)` : ''}.`,
    result.issues.length ? `Stream problems (${result.issues.length}): ${result.issues.slice(0, 5).join('; ')}` : '',
  ]
    .filter(Boolean)
    .join('\n');
  const suggested_questions = [...new Set(result.answers.flatMap((x) => x.suggestions))];
  return {
    text: `${head}\n\n${sections.join('\n\n---\n\n') || 'The navigator returned no answer.'}`,
    untrustedSource: 'science_navigator (Bohrium)',
    // `text` (the answers' Markdown) is what the tool card shows; the rest is the structured result.
    output: { text: result.answers.map((x) => x.text).filter(Boolean).join('\n\n---\n\n'), sessionId: result.sessionId, via: result.via, streamProblem: result.streamProblem, issues: result.issues, answers, suggested_questions },
  };
}
