import path from 'node:path';
import type { LiveRuns } from '../engine/liveRuns';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import type { Ledger } from '../ledger/ledger';
import { headlessApprovals, NO_UI_DENIAL, type ApprovalPort, type ApprovalService } from './permissions/approvals';
import type { EgressOptions } from '../security/egress';
import type { PermissionPolicy, RuleStore } from './permissions/permissions';
import { createToolRegistry, type BuiltinToolOptions } from './builtin';
import { findToolsTool } from './tools/findTools';
import { skillTools } from './tools/skillTools';
import { environmentTools } from './tools/environmentTools';
import { skillStatusTool } from './tools/skillStatusTool';
import { recallTool } from './tools/recallTool';
import { ARCHIVE_DIR, ResultArchive } from '../archive/resultArchive';
import { memoryTools } from './tools/memoryTools';
import { planTools } from './tools/planTools';
import { MemoryService } from '../memory/memories';
import { delegationTools } from './tools/delegationTools';
import type { DelegationPort } from './delegationPort';
import type { EnvironmentService } from '../environments/service';
import type { SkillLibrary } from '../skills/library';
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
  /** Each web_search result becomes evidence (returns their ids). */
  onSearch?: BuiltinToolOptions['onSearch'];
  /** The skills the agent may search and load (absent: no skill tools). */
  skills?: () => SkillLibrary;
  /** Scientific environments (env_list, env_use, env_create, env_rollback, on demand); absent: no environment tools. */
  environments?: () => Pick<EnvironmentService, 'list' | 'use' | 'create' | 'rollback' | 'declarations' | 'probes' | 'catalog' | 'currentOrDefault'>;
  /** The runs streaming now: a cell's host calls are audited under its run and shown in its stream. */
  liveRuns: LiveRuns;
  /** Who answers approval questions (the app's native dialog); absent: headless (env-configured, else deny). */
  approvals?: ApprovalPort;
  /** Registers tools discovered at run time (MCP servers') before find_tools searches the catalogue; answers notes on sources that failed. */
  refreshCatalogue?: () => Promise<string[]>;
  /** Child agents (src-main/core/delegation, above this layer): absent, no delegation tools. */
  delegation?: () => DelegationPort;
}

/**
 * The host: tools, permission policy, approvals and the dispatcher, over the ledger. Its
 * approval port is given at construction: the native dialog in the app, the headless
 * port (OPENAI4S_UNATTENDED_APPROVAL, else deny) under the CLI and tests.
 */
export class Host {
  readonly registry: ToolRegistry;
  readonly rules: RuleStore;
  readonly requests: LedgerRequestStore;
  readonly policy: PermissionPolicy;
  readonly approvals: ApprovalService;
  readonly dispatcher: HostDispatcher;
  readonly executor: ToolExecutor;
  /** Large results archived by sha256 (the context policy writes, `recall` reads). */
  readonly archive: ResultArchive;
  private readonly audit: LedgerAudit;
  /** On-demand tools each live run has found with find_tools (offered in its next requests). */
  private readonly disclosed = new Map<string, Set<string>>();

  constructor(private readonly options: HostOptions) {
    this.registry = createToolRegistry({
      env: options.env,
      ...(options.egress ? { egress: options.egress } : {}),
      ...(options.extraTools ? { extra: options.extraTools } : {}),
      ...(options.onPage ? { onPage: options.onPage } : {}),
      ...(options.onSearch ? { onSearch: options.onSearch } : {}),
    });
    const disclose = (runId: string, names: string[]) => {
      const set = this.disclosed.get(runId) ?? new Set<string>();
      for (const name of names) set.add(name);
      this.disclosed.set(runId, set);
    };
    this.registry.register(findToolsTool(this.registry, disclose, options.refreshCatalogue));
    if (options.skills) for (const tool of skillTools(options.skills, disclose)) this.registry.register(tool);
    if (options.environments) for (const tool of environmentTools(options.environments)) this.registry.register(tool);
    // skill_status checks a skill's packages against the session's environments: it needs both.
    if (options.skills && options.environments) this.registry.register(skillStatusTool(options.skills, options.environments));
    this.archive = new ResultArchive(path.join(options.dataDir, ARCHIVE_DIR), () => options.ledger().archive);
    this.registry.register(recallTool(() => this.archive));
    // Memory and the visible plan live in the ledger; plan steps go to the session's live stream.
    const memory = new MemoryService(options.ledger);
    for (const tool of memoryTools(() => memory)) this.registry.register(tool);
    const plans = { load: (s: string) => options.ledger().memory.plan(s), save: (s: string, r: string | null, p: Parameters<Ledger['memory']['savePlan']>[2]) => options.ledger().memory.savePlan(s, r, p) };
    for (const tool of planTools({ ...plans, emitOf: (s) => options.liveRuns.of(s)?.emit })) this.registry.register(tool);
    if (options.delegation) for (const tool of delegationTools(options.delegation)) this.registry.register(tool);
    this.rules = new LedgerRuleStore(options.ledger);
    this.requests = new LedgerRequestStore(options.ledger);
    const headless = !options.approvals;
    const port = options.approvals ?? headlessApprovals(options.env);
    ({ policy: this.policy, approvals: this.approvals } = createPermissionLayer({ rules: this.rules, requests: this.requests, port }));
    const audit = (this.audit = new LedgerAudit(options.ledger, path.join(options.dataDir, 'logs', 'host-audit.jsonl')));
    const dispatcherDeps = { registry: this.registry, policy: this.policy, approvals: this.approvals, audit };
    this.dispatcher = new HostDispatcher({ ...dispatcherDeps, ...(headless ? { denialNote: NO_UI_DENIAL } : {}) });
    this.executor = new ToolExecutor(this.dispatcher, { workspaceFor: options.workspaceFor });
  }

  /** The kernel supervisor's host-call port: a cell's calls run under its session's live run, if any. */
  kernelHandler(local: KernelHostOptions['local'] = {}, childEmit?: (runId: string) => ((chunk: StreamChunk) => void) | undefined) {
    const { liveRuns } = this.options;
    // A cell in a child agent's own kernel (issue 20) calls as that child's run, into its stream.
    return createKernelHostHandler(this.dispatcher, {
      runOf: (sessionId, owner) => owner ?? liveRuns.of(sessionId)?.runId ?? null,
      emitOf: (sessionId, owner) => (owner ? childEmit?.(owner) : liveRuns.of(sessionId)?.emit),
      local,
    });
  }

  /** Offers on-demand tools to a run from its next request, as find_tools does (recall once the run archived a result). */
  disclose(runId: string, names: string[]): void {
    const set = this.disclosed.get(runId) ?? new Set<string>();
    for (const name of names) if (this.registry.get(name)) set.add(name);
    this.disclosed.set(runId, set);
  }

  /** A run ended: its per-run audit state goes. */
  endRun(runId: string): void {
    this.audit.endRun(runId);
    this.disclosed.delete(runId);
  }

  /** A session ended (deleted): its grants go. */
  endSession(sessionId: string): void {
    this.policy.endSession(sessionId);
  }

  /** How many entries the per-run and per-session tables hold (diagnostics and the lifecycle test). */
  sizes(): Record<string, number> {
    const audit = this.audit.sizes();
    const policy = this.policy.sizes();
    return { auditTurns: audit.turns, auditOpenGroups: audit.openGroups, auditKnownRuns: audit.knownRuns, ...policy, approvalsWaiting: this.approvals.waitingCount, disclosedRuns: this.disclosed.size };
  }

  /** What the model is offered in a run's next request: the tools offered from the start and those the run found. */
  llmTools(runId?: string) {
    return this.registry.forModel(runId ? this.disclosed.get(runId) : undefined);
  }
}
