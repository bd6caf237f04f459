import path from 'node:path';
import { AppError } from '../../../src-preload/contract/errors';
import type { SafetyReport } from '../../../src-preload/contract/doctor';
import { biosecurityGuard } from '../biosecurity/guard';
import { CellGate } from '../biosecurity/cellReview/cellGate';
import { CellReviewer } from '../biosecurity/cellReview/cellReviewer';
import { PythonReviewer } from '../biosecurity/cellReview/pythonReviewer';
import { reviewerInterpreter, safetyPosture, safetyReport } from '../biosecurity/posture';
import type { ApprovalService } from '../capabilities/permissions/approvals';
import type { PermissionPolicy } from '../capabilities/permissions/permissions';
import { appRoot } from '../config/appPaths';
import type { ConfigEnv } from '../config/env';
import type { ActionGuardPort } from '../engine/ports';
import type { Ledger } from '../ledger/ledger';
import type { SafetyCheckInput } from '../ledger/safetyChecksRepo';
import { nowIso } from '../ledger/util';
import type { LanguageModelPort } from '../llm/types';
import type { ProvenanceServices } from '../provenance/services';
import { safetyApprovals } from './safetyApprovals';

/** Databases whose records identify a sequence, structure or molecule (evidence for the sequence check). */
const IDENTITY_DATABASES = new Set(['uniprot', 'pdb', 'ncbi', 'genbank', 'ena', 'refseq', 'blast', 'pubchem', 'chembl', 'alphafold']);

export interface SafetyDeps {
  env: Pick<ConfigEnv, 'get'>;
  processEnv: NodeJS.ProcessEnv;
  ledger: () => Pick<Ledger, 'safety' | 'sessions' | 'journaled'>;
  host: { approvals: ApprovalService; policy: Pick<PermissionPolicy, 'consumeOnce' | 'evaluate'> };
  /** No one answers approvals (CLI, tests): a question is denied unless OPENAI4S_UNATTENDED_APPROVAL=allow. */
  headless: boolean;
  provenance: () => Pick<ProvenanceServices, 'evidence'>;
}

/** The safety layers of issue 27 as the runner and the routes use them. */
export interface SafetyLayers {
  readonly gate: CellGate;
  /** The biosecurity guard of one run, or undefined when the layer is off. */
  guard(run: { sessionId: string; runId: string; model: LanguageModelPort | null }): ActionGuardPort | undefined;
  /**
   * The gate in front of a cell the user runs (kernel.execute): resolves to run it, throws
   * AppError('refused') otherwise (its check's row durable first). For a cell that runs,
   * `record()` writes the check's row (made at the verdict, with its time): the caller calls
   * it once the cell is sent to its kernel (the main thread waits for the kernel then, so
   * the write is off the round trip), and awaits it before it answers. It settles once the
   * row is durable, never rejects, and returns the same promise when called again.
   */
  reviewUserCell(sessionId: string, language: 'python' | 'r', code: string): Promise<{ record(): Promise<void> }>;
  posture(): SafetyReport;
  close(): void;
}

export function buildSafetyLayers(deps: SafetyDeps): SafetyLayers {
  const interpreter = reviewerInterpreter(deps.processEnv);
  const python = interpreter.path
    ? new PythonReviewer({ interpreter: interpreter.path, workersDir: path.join(appRoot(deps.processEnv), 'kernel-workers'), pathVar: deps.processEnv.PATH ?? '/usr/bin:/bin' })
    : null;
  const approvals = safetyApprovals(deps.host, deps.headless);
  // A session the ledger does not know (`openai4s kernel exec` uses "cli") has no row to hang the check on; its approval is still asked and audited.
  // A user's cell (kernel.execute) has its check's row made durable without a commit of
  // its own (Ledger.journaled: journaled now, committed with the cell's own rows in the
  // next group commit), so no commit adds to the cell's round trip; the route answers only
  // once it is durable. Other checks are written synchronously, as before.
  const record = (input: Parameters<Ledger['safety']['record']>[0], at?: string): void | Promise<void> => {
    const ledger = deps.ledger();
    if (!ledger.sessions.exists(input.sessionId)) return;
    if (input.subject === 'user_cell') {
      const check = ledger.safety.prepare(input, at);
      return ledger.journaled([check.journal], check.write);
    }
    ledger.safety.record(input);
  };
  const gate = new CellGate({ reviewer: new CellReviewer(python), enabled: () => safetyPosture(deps.env).cellReview.on, approvals, record });
  const identityEvidence = (sessionId: string): string | null => {
    const found = deps
      .provenance()
      .evidence.list(sessionId, { kind: 'retrieval' })
      .find((r) => IDENTITY_DATABASES.has(String(r.envelope.database ?? '').toLowerCase()));
    return found ? `${found.id} (${found.title})` : null;
  };
  return {
    gate,
    guard(run) {
      if (!safetyPosture(deps.env).biosecurity.on) return undefined;
      return biosecurityGuard({ ...run, approvals, record, identityEvidence: () => identityEvidence(run.sessionId) });
    },
    async reviewUserCell(sessionId, language, code) {
      let start!: () => void;
      const started = new Promise<void>((resolve) => (start = resolve));
      // The row is made at the verdict (its time is the check's) and written once started.
      const later = (input: SafetyCheckInput): Promise<void> => {
        const at = nowIso();
        return started.then(() => record(input, at));
      };
      const gated = await gate.check(language, code, { sessionId, runId: null, subject: 'user_cell', record: later });
      const written = (): Promise<void> => {
        start();
        return gated.recorded;
      };
      if (!gated.run) {
        await written();
        throw new AppError('refused', gated.message);
      }
      return { record: written };
    },
    posture: () => safetyReport(deps.env, deps.processEnv),
    close: () => python?.stop(),
  };
}
