import { AppError } from '../../../src-preload/contract/errors';
import type { KernelLanguage, KernelSlotStatus } from '../../../src-preload/contract/kernel';
import type { KernelLeaseOwner, KernelVariables, UserCellHostCall, UserCellRecord, UserCellRun } from '../../../src-preload/contract/notebook';
import type { ObservedHostCall } from '../kernel/runCell';
import type { KernelLease } from '../kernel/kernelLease';
import type { KernelSupervisor } from '../kernel/supervisor';
import type { UserCellInput as UserCellsInput, UserCellsRepo } from '../ledger/userCellsRepo';
import type { NewEvidence } from '../records/evidenceStore';
import { cellEvidence, recordCellEvidence } from '../provenance/evidenceRecords';
import { captureFigures } from '../provenance/figures';
import type { ProvenanceServices } from '../provenance/services';
import { parseVariables, variablesSnippet } from './variablesSnippet';

export interface NotebookCellsDeps {
  readonly userCells: () => Pick<UserCellsRepo, 'record' | 'list'>;
  readonly kernels: Pick<KernelSupervisor, 'execute' | 'status' | 'workspaceFor' | 'restart'>;
  readonly lease: KernelLease;
  /** Each user cell becomes evidence and its figures artifact versions, as an agent's cell does. */
  readonly provenance?: () => Pick<ProvenanceServices, 'evidence' | 'artifacts'>;
  /**
   * Records a cell without figures, its evidence (if given) with it, durable when it resolves
   * without a commit of its own (`Ledger.recordUserCell`: journaled, committed later by the
   * audit writer thread or the next group commit); default: both written at once.
   */
  readonly recordCell?: (input: Omit<UserCellsInput, 'evidenceId'>, evidence: NewEvidence | null) => Promise<UserCellRecord>;
}

export interface UserCellInput {
  sessionId: string;
  language: KernelLanguage;
  code: string;
  /** The notebook cell this run is a new version of; absent: a new cell. */
  cellKey?: string;
  timeoutMs?: number;
}

const LABEL: Record<KernelLanguage, string> = { python: 'Python', r: 'R' };

/** A call as the export replays it: the `{text, output}` the cell received, or the error it raised. */
function recordedCall(call: ObservedHostCall): UserCellHostCall {
  if (call.error !== undefined) return { method: call.method, arguments: call.args, status: 'error', text: call.error };
  const answer = call.result as { text?: unknown; output?: unknown } | null | undefined;
  const text = typeof answer?.text === 'string' ? answer.text : JSON.stringify(call.result ?? null);
  return { method: call.method, arguments: call.args, status: 'ok', text, ...(answer && typeof answer === 'object' && 'output' in answer ? { output: answer.output } : {}) };
}
/** What the user can do about each kind of holder when a restart is refused. */
const RESTART_FIX: Record<KernelLeaseOwner['kind'], string> = {
  agent: 'stop the run or wait for it to end',
  user: 'interrupt it or wait for it to finish',
  environment: 'wait for the switch to finish (it starts a new kernel itself)',
};

/** The variables view's cell: long enough for a namespace of big objects, short enough never to hold the kernel. */
const VARIABLES_TIMEOUT_MS = 15_000;

/**
 * The cells the user writes in the Notebook tab (issue 25). Each runs in the session's
 * kernel once it holds the session's kernel lease (after the agent's turn in progress, in
 * arrival order), and is recorded when it finishes as a new version of its notebook cell,
 * with evidence and its figures as artifact versions. The agent reads them in its next
 * request (runner/userCellsContext.ts).
 */
export class NotebookCells {
  constructor(private readonly deps: NotebookCellsDeps) {}

  list(sessionId: string): UserCellRecord[] {
    return this.deps.userCells().list(sessionId);
  }

  /** `onSent`: called once the cell is written to its kernel (work that may overlap its run). */
  async run(input: UserCellInput, hooks: { onSent?: () => void } = {}): Promise<UserCellRun> {
    const owner: KernelLeaseOwner = { kind: 'user', id: input.cellKey ?? 'new cell', label: `your ${LABEL[input.language]} cell` };
    return this.deps.lease.run(input.sessionId, owner, async () => {
      const startedAt = new Date().toISOString();
      // Its host calls are kept with it (an agent's are in the action ledger), so an export can replay them.
      const hostCalls: UserCellHostCall[] = [];
      const result = await this.deps.kernels.execute(input.sessionId, input.language, input.code, {
        ...(input.timeoutMs ? { timeoutMs: input.timeoutMs } : {}),
        onHostCall: (call) => hostCalls.push(recordedCall(call)),
        ...(hooks.onSent ? { onSent: hooks.onSent } : {}),
      });
      const services = this.deps.provenance?.() ?? null;
      const cell = {
        sessionId: input.sessionId,
        cellKey: input.cellKey ?? null,
        language: input.language,
        code: input.code,
        result,
        hostCalls,
        startedAt,
        finishedAt: new Date().toISOString(),
      };
      let recorded: UserCellRecord;
      if (services && result.displays.some((d) => d.path || d.svgPath || d.pdfPath)) {
        // Figures become artifact versions citing the cell's evidence, between the two rows.
        const evidenceId = recordCellEvidence(services.evidence, result, input.code).id;
        await captureFigures(services.artifacts, result, this.deps.kernels.workspaceFor(input.sessionId), [evidenceId]);
        recorded = this.deps.userCells().record({ ...cell, evidenceId });
      } else if (this.deps.recordCell) {
        // No figures (the common cell): the evidence and the record durable together, no commit of their own.
        recorded = await this.deps.recordCell(cell, services ? cellEvidence(result, input.code) : null);
      } else {
        const evidenceId = services ? recordCellEvidence(services.evidence, result, input.code).id : null;
        recorded = this.deps.userCells().record({ ...cell, evidenceId });
      }
      return { ...result, userCell: { id: recorded.id, cellKey: recorded.cellKey, version: recorded.version } };
    });
  }

  /**
   * The user's Restart: a new generation, but only while nobody holds the session's kernel.
   * Restarting under the agent's turn or a running cell would tear its work down mid-way, and
   * a restart queued behind them would fire long after the user asked; so it is refused,
   * naming the holder and what to do, and while it runs it holds the lease (a cell sent
   * meanwhile waits for the new generation).
   */
  async restart(sessionId: string, language: KernelLanguage): Promise<KernelSlotStatus> {
    const owner: KernelLeaseOwner = { kind: 'user', id: 'restart', label: `a restart of the ${LABEL[language]} kernel` };
    const release = this.deps.lease.tryAcquire(sessionId, owner);
    if (!release) {
      const { holder, waiting } = this.deps.lease.view(sessionId);
      const who = holder ? `${holder.label} holds it` : `${waiting.length} waiting cell(s) are next`;
      const fix = holder ? RESTART_FIX[holder.kind] : 'wait for them to run';
      throw new AppError('conflict', `The ${LABEL[language]} kernel was not restarted: ${who}; ${fix}, then restart it.`);
    }
    try {
      return await this.deps.kernels.restart(sessionId, language);
    } finally {
      release();
    }
  }

  /** The running kernel's names; a kernel that is not running is not started for it. */
  async variables(sessionId: string, language: KernelLanguage): Promise<KernelVariables> {
    const slot = this.deps.kernels.status(sessionId).slots.find((s) => s.language === language);
    if (!slot || slot.state === 'none' || slot.state === 'dead' || !slot.generation) return { language, generation: null, variables: [] };
    const owner: KernelLeaseOwner = { kind: 'user', id: 'variables', label: 'the variables view' };
    return this.deps.lease.run(sessionId, owner, async () => {
      const result = await this.deps.kernels.execute(sessionId, language, variablesSnippet(language), { timeoutMs: VARIABLES_TIMEOUT_MS, introspection: true });
      if (result.status !== 'ok') throw new Error(`The variables could not be listed: ${result.error ? `${result.error.ename}: ${result.error.evalue}` : result.status}`);
      return { language, generation: result.generation, variables: parseVariables(result.stdout) };
    });
  }
}
