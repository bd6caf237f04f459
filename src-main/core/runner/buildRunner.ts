import type { CoreConfig } from '../config/coreConfig';
import type { ConfigEnv } from '../config/env';
import { defaultProviderId } from '../config/providers';
import { CELL_LIMIT_HINT, resolveCellTimeoutMs } from '../config/cellLimit';
import type { Host } from '../capabilities/host';
import type { KernelPort } from '../engine/ports';
import type { LanguageModelPort } from '../llm/types';
import { reviewedKernel } from '../biosecurity/cellReview/reviewedKernel';
import type { SafetyLayers } from './safetyWiring';
import { buildSystemPrompt } from '../engine/systemPrompt';
import type { LiveRuns } from '../engine/liveRuns';
import type { EventBus } from '../events/bus';
import type { KernelSupervisor } from '../kernel/supervisor';
import type { Ledger } from '../ledger/ledger';
import { createModel } from '../llm/model';
import type { ProvenanceServices } from '../provenance/services';
import type { SettingsService } from '../settings/settingsService';
import type { SkillLibrary } from '../skills/library';
import type { CellProtocol } from './cellProtocol';
import { kernelPort } from './kernelCells';
import { recordingKernel } from './recording';
import { sessionLookup } from './sessionLookup';
import { SessionRunner } from './sessionRunner';
import { runContextPolicy } from './contextWiring';
import type { StandingContextSource } from '../archive/standingContext';
import { mentionedSkills } from '../skills/mentions';
import { userCellsNote } from './userCellsContext';

/** What the session runner is built from: the modules below it, each as far as the runner uses it. */
export interface RunnerWiring {
  readonly config: Pick<CoreConfig, 'settingsKey' | 'settingsEndpoint'>;
  readonly ledger: Ledger;
  readonly host: Pick<Host, 'executor' | 'llmTools' | 'endRun' | 'archive' | 'disclose'>;
  readonly kernels: KernelSupervisor;
  readonly provenance: () => ProvenanceServices;
  readonly events: EventBus;
  readonly cells: CellProtocol;
  readonly liveRuns: LiveRuns;
  readonly settings: Pick<SettingsService, 'read'>;
  /** The enabled skills' one-line catalogue goes into each run's system prompt. */
  readonly skills: Pick<SkillLibrary, 'listing' | 'enabled'>;
  /** The configuration a session sees (the app's, or under the demo's overlay). */
  envFor(sessionId: string): ConfigEnv;
  /** Standing context (memory, plan) added to every request of a run, never summarised (src-main/core/archive/standingContext.ts). */
  readonly standing?: StandingContextSource;
  /** Biosecurity screening and the pre-execution review of cells (issue 27); absent: neither. */
  readonly safety?: SafetyLayers;
}

/** The limit chosen in Settings, if any (an unreadable settings table leaves the default). */
function storedCellTimeout(settings: RunnerWiring['settings']): number | null {
  try {
    return settings.read().cellTimeoutS ?? null;
  } catch {
    // The ledger may be closing; the configured default applies.
    return null;
  }
}

/** The default provider chosen in Settings, if any (the composer sends it too; a run without a choice honours it). */
function storedDefaultProvider(settings: RunnerWiring['settings']): string | null {
  try {
    return settings.read().defaultProvider ?? null;
  } catch {
    // An unreadable settings table leaves OPENAI4S_PROVIDER or the built-in default.
    return null;
  }
}

/**
 * The engine's kernel port over the supervisor: every cell recorded as an action group,
 * as evidence, with its figures as artifacts (child agents use it too, issue 20).
 */
export function sessionKernel(w: Pick<RunnerWiring, 'ledger' | 'kernels' | 'provenance' | 'cells' | 'settings' | 'envFor' | 'safety'>, owner?: string): KernelPort {
  const port = kernelPort(w.kernels, {
    provenance: w.provenance,
    takeSubmitted: (sessionId, cellId) => w.cells.takeSubmitted(sessionId, cellId),
    cellTimeoutMs: (sessionId) => resolveCellTimeoutMs(w.envFor(sessionId), storedCellTimeout(w.settings)),
    timeLimitHint: CELL_LIMIT_HINT,
    // A child agent's cells (issue 20) run in its own kernel of the session: its own generation.
    ...(owner ? { owner } : {}),
  });
  // The pre-execution review sits in front of the kernel, inside the recorded attempt: a cell not approved is a failed attempt with the reason.
  return recordingKernel(w.ledger, w.safety ? reviewedKernel(port, w.safety.gate) : port);
}

/** A run's system prompt: today's date, the kernel languages and the enabled skills' catalogue. */
export function runSystemPrompt(w: Pick<RunnerWiring, 'skills'>): string {
  return buildSystemPrompt({ date: new Date().toISOString().slice(0, 10), languages: ['python', 'r'], skills: w.skills.listing() });
}

/**
 * Wires the session runner to the ledger, providers, kernels, host (tools, permissions,
 * approvals), evidence and event bus.
 */
export function buildSessionRunner(w: RunnerWiring): SessionRunner {
  return new SessionRunner({
    ledger: w.ledger,
    createModel: (provider, model, sessionId) => {
      const env = w.envFor(sessionId);
      return createModel(provider ?? storedDefaultProvider(w.settings) ?? defaultProviderId(env), {
        env,
        ...(model ? { model } : {}),
        ...(w.config.settingsKey ? { settingsKey: w.config.settingsKey } : {}),
        ...(w.config.settingsEndpoint ? { settingsEndpoint: w.config.settingsEndpoint } : {}),
      });
    },
    // The host's executor records each batch as an action group, with targets and decisions.
    executor: w.host.executor,
    kernel: sessionKernel(w),
    evidenceFor: (sessionId) => sessionLookup(w.provenance, sessionId),
    // Biosecurity screening of each step of a run, with the run's own model as the screener.
    ...(w.safety ? { guard: (run: { sessionId: string; runId: string; model: LanguageModelPort }) => w.safety!.guard(run) } : {}),
    tools: (runId) => w.host.llmTools(runId),
    systemPrompt: () => runSystemPrompt(w),
    // Large results archived by sha256, older turns compacted into a handoff, standing context every turn.
    contextPolicy: runContextPolicy(w),
    // The skill folders are listed only for a message that mentions one (`@name`).
    mentionedSkills: (message) => mentionedSkills(message, () => w.skills.enabled().map((s) => s.name)),
    // Host calls from a running cell find its run here (audit, activity, host.llm).
    liveRuns: w.liveRuns,
    // Agent turns, the user's Notebook cells and environment switches take the session's kernels in turn (issue 25).
    kernelLease: w.kernels.lease,
    userCellsNote: (sessionId, runId) => userCellsNote(w.ledger.userCells.list(sessionId), w.ledger.runs.listBySession(sessionId), runId),
    publish: (event) => w.events.emit('session.stream', event),
    // Per-run state elsewhere (audit turns, the ledger's run cache, an untaken submission) ends with the run.
    onRunEnd: (sessionId, runId) => {
      w.host.endRun(runId);
      w.ledger.events.forgetRun(runId);
      w.cells.endSession(sessionId);
    },
  });
}
