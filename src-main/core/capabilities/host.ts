import path from 'node:path';
import type { Ledger } from '../ledger/ledger';
import { headlessApprovals, NO_UI_DENIAL, type ApprovalPort, type ApprovalService } from './permissions/approvals';
import type { EgressOptions } from '../security/egress';
import type { PermissionPolicy, RuleStore } from './permissions/permissions';
import { createToolRegistry, type BuiltinToolOptions } from './builtin';
import type { Tool } from './define';
import type { ToolRegistry } from './registry';
import { LedgerAudit } from './audit';
import { createPermissionLayer, HostDispatcher } from './dispatcher';
import { ToolExecutor } from './executor';
import { createKernelHostHandler, type KernelHostOptions } from './kernelHost';
import { LedgerRequestStore, LedgerRuleStore } from './permissions/ledgerStores';

export interface HostOptions {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  ledger: () => Ledger;
  workspaceFor(sessionId: string): string;
  egress?: EgressOptions;
  extraTools?: Tool[];
  /** Each page web_fetch reads becomes evidence (returns its id). */
  onPage?: BuiltinToolOptions['onPage'];
}

/**
 * The host: tools, permission policy, approvals and the dispatcher, over the ledger. Starts
 * with the headless approval port; the Electron glue swaps in the native dialog.
 */
export class Host {
  readonly registry: ToolRegistry;
  readonly rules: RuleStore;
  readonly requests: LedgerRequestStore;
  readonly policy: PermissionPolicy;
  readonly approvals: ApprovalService;
  readonly dispatcher: HostDispatcher;
  readonly executor: ToolExecutor;
  private readonly audit: LedgerAudit;
  private port: ApprovalPort;

  constructor(private readonly options: HostOptions) {
    this.registry = createToolRegistry({
      env: options.env,
      ...(options.egress ? { egress: options.egress } : {}),
      ...(options.extraTools ? { extra: options.extraTools } : {}),
      ...(options.onPage ? { onPage: options.onPage } : {}),
    });
    this.rules = new LedgerRuleStore(options.ledger);
    this.requests = new LedgerRequestStore(options.ledger);
    this.port = headlessApprovals(options.env);
    let headless = true;
    const delegate: ApprovalPort = { ask: (q, signal) => this.port.ask(q, signal) };
    ({ policy: this.policy, approvals: this.approvals } = createPermissionLayer({ rules: this.rules, requests: this.requests, port: delegate }));
    const audit = (this.audit = new LedgerAudit(options.ledger, path.join(options.dataDir, 'logs', 'host-audit.jsonl')));
    const dispatcherDeps = { registry: this.registry, policy: this.policy, approvals: this.approvals, audit };
    this.dispatcher = new HostDispatcher({
      ...dispatcherDeps,
      get denialNote() {
        return headless ? NO_UI_DENIAL : undefined;
      },
    });
    this.executor = new ToolExecutor(this.dispatcher, { workspaceFor: options.workspaceFor });
    this.setApprovalPort = (port: ApprovalPort) => {
      this.port = port;
      headless = false;
    };
  }

  /** Replaces the headless port (the app's native dialog). */
  readonly setApprovalPort: (port: ApprovalPort) => void;

  private runs: Pick<KernelHostOptions, 'runOf' | 'emitOf'> = {};

  /** The session runner says which run a session's cells belong to and where its chunks go. */
  bindRuns(binding: Pick<KernelHostOptions, 'runOf' | 'emitOf'>): void {
    this.runs = binding;
  }

  /** The kernel supervisor's host-call port; reads the run binding at call time. */
  kernelHandler(local: KernelHostOptions['local'] = {}) {
    return createKernelHostHandler(this.dispatcher, {
      runOf: (sessionId) => this.runs.runOf?.(sessionId) ?? null,
      emitOf: (sessionId) => this.runs.emitOf?.(sessionId),
      local,
    });
  }

  /** A run ended: its per-run audit state goes. */
  endRun(runId: string): void {
    this.audit.endRun(runId);
  }

  /** A session ended (deleted): its grants go. */
  endSession(sessionId: string): void {
    this.policy.endSession(sessionId);
  }

  /** How many entries the per-run and per-session tables hold (diagnostics and the lifecycle test). */
  sizes(): Record<string, number> {
    const audit = this.audit.sizes();
    const policy = this.policy.sizes();
    return { auditTurns: audit.turns, auditOpenGroups: audit.openGroups, ...policy, approvalsWaiting: this.approvals.waitingCount };
  }

  /** What the model is offered: every tool plus finalize_response. */
  llmTools() {
    return this.registry.forModel();
  }
}
