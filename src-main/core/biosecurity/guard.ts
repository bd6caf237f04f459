import { dataChunk } from '../../../src-preload/contract/dataParts';
import type { ActionContext, ActionGuardPort, GuardedStep, GuardVerdict } from '../engine/ports';
import type { SafetyCheckInput } from '../ledger/safetyChecksRepo';
import type { LanguageModelPort, LlmMessage } from '../llm/types';
import { sha256, type SafetyApprovalPort } from './approvalPort';
import { prescan, trips, type PrescanHit } from './prescan';
import { screenWithModel, ScreenerUnavailableError, type ScreenerVerdict } from './screener';
import { sequenceConcern } from './sequenceCheck';
import { errorMessage } from '../shared/errorMessage';

/**
 * Biosecurity screening of one run (issue 27), as the engine's action guard. Each step
 * (the user's message, a tool batch, a cell) is pre-scanned locally; only when the pre-scan
 * trips on something new is the screener asked. allow: the step runs. escalate: a person is
 * asked, with the screener's reason on the approval card. block: the run ends with a
 * refusal. No silent allow: when the screener cannot run, a person is asked (headless: denied).
 * Sequence-level enhancement of an unlabelled sequence waits for identity evidence.
 * Every screening and sequence check is a ledger row.
 */
export interface BiosecurityGuardDeps {
  sessionId: string;
  runId: string;
  /** The run's model (the screener calls the run's provider); null: none available. */
  model: LanguageModelPort | null;
  approvals: SafetyApprovalPort;
  record(input: SafetyCheckInput): void;
  /** Evidence of identity in the session (a database search or similarity hit), described; null when there is none. */
  identityEvidence(): string | null | Promise<string | null>;
}

const TOOL = 'biosecurity_screen';

function stepText(step: GuardedStep): string {
  if (step.kind === 'message') return step.text;
  if (step.kind === 'cell') return `${step.text}\n${step.code}`;
  return [step.text, ...step.calls.map((c) => `${c.name}(${c.rawArguments})`)].join('\n');
}

/** A step that works on sequences in the workspace: a cell, or a file written by a tool. */
const worksOnSequences = (step: GuardedStep) => step.kind === 'cell' || (step.kind === 'tools' && step.calls.some((c) => c.name === 'write_file'));

export function biosecurityGuard(deps: BiosecurityGuardDeps): ActionGuardPort {
  /** Hits seen in this run (an agent named earlier trips together with a manipulation later). */
  const seen: PrescanHit[] = [];
  /**
   * What the screener allowed in this run, which does not buy another model call (escalated
   * hits do). A name (an agent, a toxin, a chemical, a manipulation) is cleared by its term; an
   * intent or an evasion only in the words it was allowed in: the run drifting toward it in
   * new words ("the policy debate on gain of function", later "plan a gain-of-function
   * experiment") is screened again.
   */
  const cleared = new Set<string>();
  const clearKey = (h: PrescanHit) => (h.category === 'intent' || h.category === 'evasion' ? `${h.term}\u0000${h.excerpt.replace(/…/g, '').trim().toLowerCase()}` : h.term);
  let refusals = 0;

  const record = (step: GuardedStep, ctx: ActionContext, row: Omit<SafetyCheckInput, 'sessionId' | 'runId' | 'turn' | 'subject' | 'subjectSha256'>) => {
    try {
      deps.record({ sessionId: deps.sessionId, runId: deps.runId, turn: ctx.turn ?? 0, subject: step.kind, subjectSha256: sha256(stepText(step)), ...row });
    } catch (error) {
      // The check still decides; a ledger that cannot take the row is reported by the ledger itself.
      console.warn(`biosecurity: the screening could not be recorded: ${errorMessage(error)}`);
    }
  };

  async function sequenceCheck(step: GuardedStep, history: readonly LlmMessage[], ctx: ActionContext): Promise<GuardVerdict | null> {
    if (!worksOnSequences(step)) return null;
    const started = performance.now();
    const userText = history.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
    const concern = sequenceConcern({ step: stepText(step), userText });
    if (!concern) return null;
    const evidence = await deps.identityEvidence();
    const trigger = { sequences: concern.sequences, intent: concern.intent };
    if (evidence) {
      record(step, ctx, { layer: 'sequence', trigger, checkedBy: 'identity-check', verdict: 'allow', reason: `identity evidence in the session: ${evidence}`, outcome: 'proceeded', requestId: null, durationMs: performance.now() - started });
      return null;
    }
    const what = concern.sequences.map((s) => `a ${s.length}-${s.kind === 'dna' ? 'nt' : 'residue'} ${s.kind === 'dna' ? 'nucleotide' : 'protein'} sequence (${s.preview})`).join(', ');
    const message = `this step works to enhance ${what} ("${concern.intent}") whose identity has not been established in this session. First identify it (science_search in uniprot or pdb, or a similarity search) and say what it is; capability-enhancing work continues only on an identified sequence that is not a regulated pathogen or toxin.`;
    record(step, ctx, { layer: 'sequence', trigger, checkedBy: 'identity-check', verdict: 'refused', reason: message, outcome: 'refused', requestId: null, durationMs: performance.now() - started });
    // The conversation shows the cell that was not run, and why (a refused tool call shows as its error).
    if (step.kind === 'cell') ctx.emit(dataChunk('cell', `${deps.runId}-refused-${++refusals}`, { language: step.language, code: step.code, status: 'error', error: { ename: 'Refused', evalue: `Not run: ${message}`, traceback: '', line: null } }));
    return { action: 'refuse', message };
  }

  return {
    async check(step, history, ctx) {
      const sequence = await sequenceCheck(step, history, ctx);
      if (sequence) return sequence;

      const hits = prescan(stepText(step)).filter((h) => !cleared.has(clearKey(h)));
      const tripped = hits.length > 0 && trips(hits, seen);
      seen.push(...hits);
      if (!tripped) return { action: 'proceed' };

      const started = performance.now();
      const pending = step.kind === 'message' ? '' : stepText(step);
      let verdict: ScreenerVerdict | { verdict: 'unavailable'; reason: string };
      try {
        verdict = await screenWithModel(deps.model, { history, pending, hits }, ctx.signal, (usage, cost) => ctx.charge?.(usage, cost));
      } catch (error) {
        if (ctx.signal.aborted) return { action: 'end', message: 'Stopped by the user.' };
        verdict = { verdict: 'unavailable', reason: error instanceof ScreenerUnavailableError ? error.message : errorMessage(error) };
      }
      const checkedBy = deps.model ? `model:${deps.model.providerId}/${deps.model.model}` : 'none';
      const terms = hits.map((h) => h.term).join(', ');
      const base = { layer: 'trajectory' as const, trigger: hits, checkedBy, verdict: verdict.verdict, reason: verdict.reason };
      const elapsed = () => performance.now() - started;

      if (verdict.verdict === 'allow') {
        for (const h of hits) cleared.add(clearKey(h));
        record(step, ctx, { ...base, outcome: 'proceeded', requestId: null, durationMs: elapsed() });
        return { action: 'proceed' };
      }
      if (verdict.verdict === 'block') {
        record(step, ctx, { ...base, outcome: 'ended', requestId: null, durationMs: elapsed() });
        return {
          action: 'end',
          message: `I stopped this run: biosecurity screening found that it moves toward work the app will not carry out. ${verdict.reason} Routine research (sequence analysis, structures of characterised proteins, docking known drugs, expression analysis, phylogenetics, diagnostics and vaccine work) is unaffected; if this was misread, describe the purpose and send it again.`,
        };
      }
      const why =
        verdict.verdict === 'escalate'
          ? `Biosecurity screening asks you to confirm before the agent continues: ${verdict.reason}`
          : `Biosecurity screening could not run (${verdict.reason}); the run names ${terms}, so it continues only if you confirm.`;
      const answer = await deps.approvals.ask(
        {
          sessionId: deps.sessionId,
          runId: deps.runId,
          tool: TOOL,
          target: terms,
          reason: why,
          detail: hits.map((h) => `${h.term}: "${h.excerpt}"`).join('\n'),
          origin: step.kind === 'cell' ? 'cell' : 'tool',
          emit: ctx.emit,
        },
        ctx.signal,
      );
      record(step, ctx, { ...base, outcome: answer.allowed ? 'approved' : 'denied', requestId: answer.requestId, durationMs: elapsed() });
      // Confirmed by a person, the step runs; the terms stay under watch (a later step that trips is screened again).
      if (answer.allowed) return { action: 'proceed' };
      if (ctx.signal.aborted) return { action: 'end', message: 'Stopped by the user.' };
      return { action: 'end', message: `I stopped this run: ${why.replace(/^Biosecurity/, 'biosecurity')} It was not confirmed (${answer.note}).` };
    },
  };
}
