import path from 'node:path';
import type { DoctorReport } from '../../src-preload/contract/doctor';
import { AppError } from '../../src-preload/contract/errors';
import { loadCoreConfig, type CoreConfig } from './config/coreConfig';
import { appRoot } from './config/appPaths';
import { overlayEnv, type ConfigEnv } from './config/env';
import { resolveKernelLimits } from './config/kernelLimits';
import { kernelInterpreter } from './config/kernelEnvs';
import { heldFileCount, releaseHeldFiles } from './workspace/heldFiles';
import { startInsulinDemo } from './demo/demo';
import type { RunRecord, SessionSummary } from '../../src-preload/contract/sessions';
import type { SettingsKeyLookup } from './config/providers';
import { buildDoctorReport } from './doctor/doctor';
import { KernelSupervisor } from './kernel/supervisor';
import { EnvironmentService } from './environments/service';
import { LEDGER_FILE, openLedger, type Ledger } from './ledger/ledger';
import { LEDGER_SYNC_VARIABLE, resolveLedgerSync } from './ledger/durability';
import { buildSessionRunner, runSystemPrompt, sessionKernel } from './runner/buildRunner';
import { runContextPolicy } from './runner/contextWiring';
import { DelegationService } from './delegation/service';
import { limitsFromEnv } from './delegation/limits';
import { createCellProtocol } from './runner/cellProtocol';
import { buildSafetyLayers, type SafetyLayers } from './runner/safetyWiring';
import { recordKernelGenerations } from './runner/generationLog';
import { sessionLookup } from './runner/sessionLookup';
import { recordPageEvidence } from './provenance/evidenceRecords';
import { recordSearchEvidence } from './provenance/searchEvidence';
import type { SessionRunner } from './runner/sessionRunner';
import { EventBus } from './events/bus';
import { Host } from './capabilities/host';
import { SEARCH_VARIABLES } from './capabilities/tools/webSearch';
import { UNATTENDED_APPROVAL_VAR } from './capabilities/permissions/approvals';
import { configuredSecrets, registerSecrets, scrubConsole } from './security/secrets';
import { createProvenanceServices, type ProvenanceServices } from './provenance/services';
import { provenanceTools } from './capabilities/tools/provenanceTools';
import { ComputeService } from './compute/service';
import { computeTools } from './compute/tools';
import { dataChunk } from '../../src-preload/contract/dataParts';
import { jobStepData } from './compute/jobState';
import { literatureTools } from './capabilities/tools/literatureTools';
import { NO_SECRET_STORE_REASON, unavailableSecretStore, type SecretStore } from './settings/secretStore';
import { SettingsService } from './settings/settingsService';
import { ProviderEndpoints } from './settings/providerEndpoints';
import { ProviderService } from './providers/service';
import type { ApiServices } from './api/handlers';
import type { ApprovalPort } from './capabilities/permissions/approvals';
import { LiveRuns } from './engine/liveRuns';
import { memoryStanding } from './memory/standing';
import { sessionWorkspace } from './workspace/sessionWorkspace';
import { SkillLibrary } from './skills/library';
import { SkillCatalog } from './skills/catalogView';
import { McpClients } from './mcp/clients';
import { modelThread } from './llm/thread/modelThread';
import { askMainThreadShortSlice, yieldHelperThreads } from './shared/threadPriority';

/**
 * The main-process core: plain Node, no Electron. The Electron glue, the CLI and the
 * end-to-end harness each create one and bind it to their transport.
 */
export interface Core extends ApiServices {
  readonly config: CoreConfig;
  doctor(refresh?: boolean): Promise<DoctorReport>;
  /** Python and R kernels per session (src-main/core/kernel); closed with the core. */
  readonly kernels: KernelSupervisor;
  /** The SQLite ledger at `<dataDir>/ledger.sqlite3`, opened (and crash-repaired) on first use. */
  readonly ledger: Ledger;
  /** Main -> renderer events (the Electron glue forwards them to the window). */
  readonly events: EventBus;
  /** Runs the agent for the sessions of the ledger; created on first use. */
  readonly runner: SessionRunner;
  /** Child agents under the user's runs (issue 20); created on first use. */
  readonly delegation: DelegationService;
  /** Tools, permissions, approvals and the dispatcher every capability call goes through (src-main/core/host). */
  readonly host: Host;
  /** Biosecurity screening and the pre-execution review of cells (issue 27): on unless turned off explicitly. */
  readonly safety: SafetyLayers;
  /** Evidence, science connectors and versioned artifacts (src-main/core/{evidence,science,artifacts}); opened on first use. */
  readonly provenance: ProvenanceServices;
  /** The configuration a session sees: the app's, or the app's under that session's overlay (the demo). */
  envFor(sessionId: string): ConfigEnv;
  /** Plays the insulin story as a replay in a new session (no key needed); resolves once it is submitted. */
  startDemo(): Promise<{ session: SessionSummary; run: RunRecord }>;
  /** Shows a file in the OS file manager; only the Electron glue provides it. */
  readonly revealPath: ((file: string) => Promise<void>) | null;
  /** Agent Skills from the bundled, user and Settings folders (src-main/core/skills). */
  readonly skills: SkillLibrary;
  /** Scientific environments: discovery, each session's current one per language, builds and rollback (issue 18). */
  readonly environments: EnvironmentService;
  /** App settings (ledger) and provider keys (the host's secret store, if it has one). */
  readonly settings: SettingsService;
  /** Model providers for the user: readiness, saving the setup form, the connection test (src-main/core/providers). */
  readonly providers: ProviderService;
  /** Compute targets (Slurm, SSH) and their jobs, polled until harvested (src-main/core/compute). */
  readonly compute: ComputeService;
  /** Configured MCP servers (Settings and <data root>/mcp.json): their tools as on-demand capabilities. */
  readonly mcp: McpClients;
  /**
   * Deletes a session: its runs are cancelled, its kernels stopped at once, and every
   * per-session table in memory released. The ledger only hides it (append-only).
   */
  deleteSession(sessionId: string): Promise<void>;
  /** Entries held by the per-session and per-run tables of the core, by owner (diagnostics and the lifecycle test). */
  sizes(): Record<string, number>;
  close(): Promise<void>;
}

export interface CoreOptions {
  env?: NodeJS.ProcessEnv;
  settingsKey?: SettingsKeyLookup;
  revealPath?: (file: string) => Promise<void>;
  /** Where Settings keeps provider keys (Electron safeStorage in the app); none under plain Node. */
  secrets?: SecretStore;
  /** Who answers approval questions (the app's native dialog); absent: headless (OPENAI4S_UNATTENDED_APPROVAL, else deny). */
  approvals?: ApprovalPort;
  /** Resume polling the compute jobs left open by an earlier run at start (the app does; the CLI polls when asked). */
  resumeComputeJobs?: boolean;
  /**
   * The main thread asks Linux for the shortest time slice, so it takes a CPU at once when
   * it wakes (threadPriority.ts `SHORT_SLICE_NS`): the app's long-lived main process does;
   * a CLI command does not spawn the one-shot helper it takes.
   */
  mainThreadSlice?: boolean;
}

export function createCore(options: CoreOptions = {}): Core {
  // 1. Configuration, read once; configured keys are registered before anything can echo them.
  const secrets = options.secrets ?? unavailableSecretStore(NO_SECRET_STORE_REASON);
  // A key entered in Settings is read when a run creates its model, so it applies at once.
  const settingsKey = options.settingsKey ?? (options.secrets ? (id: string) => secrets.get(id) : undefined);
  // The base URL and model chosen in Settings, read at each use (the ledger opens on first use, below).
  const settingsEndpoint = (id: string) => endpoints.get(id);
  const config = loadCoreConfig(options.env ?? process.env, settingsKey, settingsEndpoint);
  registerSecrets(configuredSecrets(config.env, settingsKey, config.processEnv));
  scrubConsole();
  // V8's compiler and GC workers yield to the main thread under contention (threadPriority.ts).
  yieldHelperThreads();
  if (options.mainThreadSlice) void askMainThreadShortSlice(pythonForHelpers(config.processEnv));
  const events = new EventBus();
  // Once close() begins no new runner may start; once it ends nothing may reopen the
  // ledger (a late IPC call would otherwise open a fresh runner and database behind it).
  let closing = false;
  let closed = false;
  const refuseAfter = (done: boolean, what: string) => {
    if (done) throw new AppError('unavailable', `The app is shutting down; ${what} is closed. Start the app again to continue.`, 'shutting_down');
  };

  // 2. The ledger, opened (and crash-repaired) on first use, and what reads it.
  let ledger: Ledger | null = null;
  const ledgerOf = (): Ledger => {
    refuseAfter(closed, 'the ledger');
    return (ledger ??= openLedger(path.join(config.dataDir, LEDGER_FILE), { sync: resolveLedgerSync(config.env.value(LEDGER_SYNC_VARIABLE)) }));
  };
  const settings = new SettingsService(() => ledgerOf().settings, secrets, config);
  const endpoints = new ProviderEndpoints(() => ledgerOf().settings);
  // Providers for the user: readiness, the setup form, the connection test.
  const providers = new ProviderService({ config, settings, endpoints });
  // Per-session configuration overlays (the in-app demo) and what closes them.
  const overlays = new Map<string, Record<string, string>>();
  const demos = new Set<Promise<void>>();
  const envFor = (sessionId: string): ConfigEnv => {
    const overlay = overlays.get(sessionId);
    return overlay ? overlayEnv(config.env, overlay) : config.env;
  };
  let provenance: ProvenanceServices | null = null;
  const provenanceOf = (): ProvenanceServices => {
    refuseAfter(closed, 'the evidence and artifact store');
    return (provenance ??= createProvenanceServices({
      dataDir: config.dataDir,
      env: (name) => config.env.value(name),
      envFor: (sessionId) => (overlays.has(sessionId) ? (name) => envFor(sessionId).value(name) : null),
      processEnv: config.processEnv,
      stores: ledgerOf().provenance,
      generationEnvironment: (generation) => environments.generationEnvironment(generation),
    }));
  };

  // Skills: bundled with the app (read-only, wins a clash), the user's, and folders added in Settings.
  const skills = new SkillLibrary({
    folders: () => {
      const chosen = settings.readOrDefaults();
      return [
        { source: 'bundled' as const, dir: path.join(appRoot(config.processEnv), 'skills') },
        { source: 'user' as const, dir: path.join(config.dataDir, 'skills') },
        ...(chosen.skillFolders ?? []).map((dir) => ({ source: 'folder' as const, dir })),
      ];
    },
    disabled: () => new Set(settings.readOrDefaults().disabledSkills ?? []),
  });

  const skillCatalog = new SkillCatalog({
    library: skills,
    userDir: path.join(config.dataDir, 'skills'),
    disabled: () => settings.readOrDefaults().disabledSkills ?? [],
    setDisabled: (names) => settings.update({ disabledSkills: names }),
  });

  // 3. The runs streaming now: the host and the runner both use it, neither owns it.
  const liveRuns = new LiveRuns();
  const workspaceFor = (sessionId: string) => sessionWorkspace(config.dataDir, sessionId);

  // 3b. Compute jobs on Slurm clusters and SSH hosts: job rows in the ledger, outputs as artifact versions.
  const pollMs = Number(config.env.value('OPENAI4S_COMPUTE_POLL_MS') ?? '');
  const compute = new ComputeService({
    dataDir: config.dataDir,
    processEnv: config.processEnv,
    ledger: ledgerOf,
    artifacts: () => provenanceOf().artifacts,
    workspaceFor,
    ...(Number.isInteger(pollMs) && pollMs > 0 ? { pollMs } : {}),
    // How long a target may stay unreachable before polling its jobs stops (OPENAI4S_COMPUTE_UNREACHABLE_MS; default 10 min).
    ...(Number(config.env.value('OPENAI4S_COMPUTE_UNREACHABLE_MS')) > 0 ? { unreachableMs: Number(config.env.value('OPENAI4S_COMPUTE_UNREACHABLE_MS')) } : {}),
    // Each change of a job is a step of the session's live run, if one is streaming.
    onChange: (job) => liveRuns.of(job.sessionId)?.emit(dataChunk('compute-job', job.id, jobStepData(job))),
  });
  if (options.resumeComputeJobs) compute.resume();

  // 4. What the agent can do: tools, permissions, approvals, the dispatcher and its audit.
  const host = new Host({
    dataDir: config.dataDir,
    // Only the settings the host reads, from the layered env (real environment over .env).
    env: Object.fromEntries([UNATTENDED_APPROVAL_VAR, ...SEARCH_VARIABLES].map((k) => [k, config.env.value(k)]).filter(([, v]) => v !== undefined)),
    ledger: ledgerOf,
    workspaceFor,
    liveRuns,
    ...(options.approvals ? { approvals: options.approvals } : {}),
    // science_list_dbs, science_search, save_artifact, list_artifacts (stores open on first call).
    // science_navigator and the other literature tools (issue 21), found on demand.
    extraTools: [
      ...provenanceTools(provenanceOf),
      ...literatureTools({ env: (name) => config.env.value(name), storedKey: (id) => secrets.get(id), evidence: () => provenanceOf().evidence }),
      // compute_targets, compute_submit, compute_status, compute_result, compute_cancel (issue 23), on demand.
      ...computeTools(() => compute, workspaceFor),
    ],
    // Every page the agent reads is evidence it can cite.
    onPage: (page) => recordPageEvidence(provenanceOf().evidence, page).id,
    // Every web search result too (which backend answered, the hash of its exact answer).
    onSearch: (search) => recordSearchEvidence(provenanceOf().evidence, search).map((r) => r.id),
    skills: () => skills,
    environments: (): EnvironmentService => environments,
    // delegate_task and the other child-agent tools reach the delegation layer (above the runner) through this port.
    delegation: (): DelegationService => delegationOf(),
    // MCP servers start on the first catalogue search (which waits a few seconds, not for every server); their tools join it as on-demand tools.
    refreshCatalogue: (): Promise<string[]> => mcp.discover(),
  });
  // How long a catalogue search waits for MCP servers still starting (OPENAI4S_MCP_DISCOVER_WAIT_MS; default 3 s).
  const mcpWaitMs = config.env.value('OPENAI4S_MCP_DISCOVER_WAIT_MS');
  const mcp: McpClients = new McpClients({
    dataDir: config.dataDir,
    settings: () => ledgerOf().settings,
    registry: host.registry,
    dispatcher: host.dispatcher,
    evidence: () => provenanceOf().evidence,
    ...(mcpWaitMs && Number(mcpWaitMs) >= 0 ? { discoverWaitMs: Number(mcpWaitMs) } : {}),
  });
  // The first run of this core starts the MCP servers in the background (its own start costs a model round
  // trip or more before it searches the catalogue, and find_tools then waits only a few seconds for them).
  let mcpWarmed = false;
  events.on('session.stream', () => {
    if (mcpWarmed || closing) return;
    mcpWarmed = true;
    void mcp.discover(0).catch(() => undefined);
  });
  // 4b. The safety layers (issue 27): biosecurity screening of each run, review of each cell before it runs.
  const safety = buildSafetyLayers({ env: config.env, processEnv: config.processEnv, ledger: ledgerOf, host, headless: !options.approvals, provenance: provenanceOf });
  const cells = createCellProtocol({ liveRuns, evidenceFor: (sessionId) => sessionLookup(provenanceOf, sessionId), childRun: (runId) => delegation?.hostRun(runId) ?? null });

  // 5. Kernels: their host calls go through the host's dispatcher; cell protocol methods are the runner's.
  const kernels = new KernelSupervisor({
    // A cell in a child agent's own kernel reports its host calls in that child's stream.
    host: host.kernelHandler(cells.handlers, (runId) => delegation?.emitOf(runId)),
    // Kernel topics are a subset of the app topics: forward them as they are.
    onEvent: (topic, payload) => events.emit(topic, payload as never),
    dataDir: config.dataDir,
    workspaceFor,
    processEnv: config.processEnv,
    // Read at each kernel start, so a mode chosen in Settings applies to the next kernel.
    sandboxMode: () => settings.sandboxMode(),
    prewarm: config.processEnv.OPENAI4S_KERNEL_PREWARM === '0' ? [] : ['python'],
    // envs/limits.json, overridden from the environment or the data root's .env.
    kernelLimits: () => resolveKernelLimits((name) => config.env.get(name), appRoot(config.processEnv)).values,
    // The enabled skills' folders, mounted read-only at each kernel start (/opt/openai4s/skills/<name>).
    // Read after the background warm-up (a skill per turn of the loop), not all at once here.
    skillDirs: async () => {
      await skills.ready();
      return skills.enabled().map((s) => ({ name: s.name, dir: s.dir }));
    },
    // The session's chosen environment (issue 18), asked at each kernel start.
    environmentFor: (sessionId, language): { id: string; interpreter: string } | null => environments.kernelEnvironment(sessionId, language),
  });
  const generations = recordKernelGenerations(events, ledgerOf);
  // 5b. Scientific environments: discovery, the per-session pointer, builds, and each generation's lock.
  const environments: EnvironmentService = new EnvironmentService({ dataDir: config.dataDir, processEnv: config.processEnv, ledger: ledgerOf, kernels });
  const locks = new Set<Promise<void>>();
  events.on('kernel.lifecycle', (e) => {
    if (e.kind !== 'started' || closing) return;
    // The lock is a record for the export; failing to write it must not affect the kernel that just started.
    const recording: Promise<void> = environments.recordLock(e).catch(() => undefined).finally(() => locks.delete(recording));
    locks.add(recording);
  });

  // 6. The session runner, built on first use (it needs the ledger open).
  let runner: SessionRunner | null = null;
  const runnerOf = (): SessionRunner => {
    refuseAfter(closing && !runner, 'the session runner');
    return (runner ??= buildSessionRunner({ config, ledger: ledgerOf(), host, kernels, provenance: provenanceOf, events, cells, liveRuns, settings, skills, envFor, safety, standing: memoryStanding(ledgerOf) }));
  };
  // 6b. Child agents (issue 20): the same engine loop under a user's run, built on the first delegation.
  let delegation: DelegationService | null = null;
  const delegationOf = (): DelegationService => {
    refuseAfter(closing, 'delegation');
    return (delegation ??= new DelegationService({
      ledger: ledgerOf,
      liveRuns,
      executor: host.executor,
      // Each child computes in its own kernel of the session (its own generation), stopped when it ends.
      kernelFor: (_sessionId, runId) => ({
        ...sessionKernel({ ledger: ledgerOf(), kernels, provenance: provenanceOf, cells, settings, envFor, safety }, runId),
        release: () => kernels.closeOwner(runId),
      }),
      // Children are screened and their context kept in bounds as their parent's are.
      guard: (run) => safety.guard(run),
      contextPolicy: runContextPolicy({ ledger: ledgerOf(), host, envFor, standing: memoryStanding(ledgerOf) }),
      evidenceFor: (sessionId) => sessionLookup(provenanceOf, sessionId),
      tools: (runId) => host.llmTools(runId),
      systemPrompt: () => runSystemPrompt({ skills }),
      append: (sessionId, runId, chunk) => runnerOf().append(sessionId, runId, chunk),
      onRunEnd: (_sessionId, runId) => {
        host.endRun(runId);
        ledgerOf().events.forgetRun(runId);
      },
      limits: limitsFromEnv((name) => config.env.value(name)),
    }));
  };
  let doctorCache: Promise<DoctorReport> | null = null;

  const core: Core = {
    config,
    kernels,
    events,
    host,
    safety,
    get ledger() {
      return ledgerOf();
    },
    revealPath: options.revealPath ?? null,
    settings,
    providers,
    compute,
    mcp,
    skills,
    skillCatalog,
    environments,
    get provenance() {
      return provenanceOf();
    },
    get runner() {
      return runnerOf();
    },
    get delegation() {
      return delegationOf();
    },
    envFor,
    async startDemo() {
      const demo = await startInsulinDemo();
      const session = ledgerOf().createSession(demo.title);
      overlays.set(session.id, demo.env);
      try {
        const run = runnerOf().submit({ sessionId: session.id, mutationId: `demo-${session.id}`, message: demo.question, provider: 'openai' });
        // The replay servers live as long as the run; the session stays, as any other.
        const done = runnerOf()
          .result(run.id)
          // The run's outcome is in the ledger either way; this chain only closes the replay servers.
          .catch(() => undefined)
          .then(() => demo.close())
          .finally(() => {
            overlays.delete(session.id);
            demos.delete(done);
          });
        demos.add(done);
        return { session, run };
      } catch (error) {
        overlays.delete(session.id);
        await demo.close();
        throw error;
      }
    },
    async deleteSession(sessionId) {
      ledgerOf().sessions.require(sessionId);
      // Its runs end first (a run must not go on spending tokens in a deleted session).
      await runnerOf().cancelSession(sessionId, 'The session was deleted.');
      await delegation?.endSession(sessionId);
      // Then its kernels, while the session is still visible, so their generations are closed in the ledger.
      await kernels.closeSession(sessionId);
      ledgerOf().deleteSession(sessionId);
      host.endSession(sessionId);
      cells.endSession(sessionId);
      // Its files' descriptors held for repeated reads (heldFiles.ts) go now, not in 2 s.
      releaseHeldFiles(kernels.workspaceFor(sessionId));
    },
    sizes() {
      const prefixed = (owner: string, sizes: object) => Object.fromEntries(Object.entries(sizes).map(([k, v]) => [`${owner}.${k}`, v as number]));
      return {
        ...prefixed('kernels', kernels.sizes()),
        ...prefixed('host', host.sizes()),
        ...(runner ? prefixed('runner', runner.sizes()) : {}),
        ...(ledger ? prefixed('ledger.events', ledger.events.sizes()) : {}),
        ...(ledger ? { 'ledger.foldsCatchingUp': ledger.folds.catchingUp, 'ledger.liveSessions': ledger.sessions.remembered } : {}),
        'cells.submitted': cells.size(),
        'workspace.heldFiles': heldFileCount(),
        'generations.open': generations.size(),
        'live.runs': liveRuns.size(),
        'core.overlays': overlays.size,
        'core.demos': demos.size,
        ...(delegation ? prefixed('delegation', delegation.sizes()) : {}),
        'mcp.running': mcp.size(),
        // Streams the model thread serves (per process: every core of it shares the thread).
        'llm.threadStreams': modelThread.openStreams,
      };
    },
    doctor(refresh = false) {
      if (!doctorCache || refresh) {
        doctorCache = buildDoctorReport(config, settings.sandboxMode(), environments.probes, providers.defaultProviderId());
        // A failed probe run must not be cached forever.
        doctorCache.catch(() => (doctorCache = null));
      }
      return doctorCache;
    },
    async close() {
      closing = true;
      await runner?.close();
      runner = null;
      // Children end with their runs; wait for them before the ledger closes under them.
      await delegation?.close();
      await Promise.all([...demos]);
      // MCP servers stop with the app (after the runs that could call them).
      await mcp.close();
      if (ledger) generations.closeAll('app closed');
      await kernels.close();
      safety.close();
      // Polling stops and queries in flight finish before the ledger closes; the jobs go on on their targets.
      await compute.close();
      // Lock probes still running write to the ledger: let them finish before it closes.
      await Promise.all([...locks]);
      // Other environment probes still running answer their callers but write no cache file.
      environments.probes.close();
      // A WAL checkpoint running on its thread ends before the ledger's connection closes.
      await ledger?.checkpointer?.settled();
      ledger?.close();
      ledger = null;
      provenance?.close();
      provenance = null;
      closed = true;
    },
  };
  return core;
}

/** The Python a one-shot helper of the app runs (the kernels' default interpreter), or null without one. */
function pythonForHelpers(processEnv: NodeJS.ProcessEnv): string | null {
  try {
    return kernelInterpreter('python', processEnv).choice.path;
  } catch {
    return null;
  }
}
