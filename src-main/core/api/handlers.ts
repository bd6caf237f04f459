import { AppError } from '../../../src-preload/contract/errors';
import type { Routes } from '../../../src-preload/contract/routes';
import type { DoctorReport } from '../../../src-preload/contract/doctor';
import { OPEN_TAIL_CHUNKS, type RunRecord, type SessionSummary } from '../../../src-preload/contract/sessions';
import type { SkillCatalogView, SkillDetail } from '../../../src-preload/contract/skills';
import type { RuleStore } from '../capabilities/permissions/permissions';
import type { ApprovalService } from '../capabilities/permissions/approvals';
import { exportContributors } from '../export/contributors';
import { exportToDataDir } from '../export/exportToDataDir';
import type { KernelSupervisor } from '../kernel/supervisor';
import type { Ledger } from '../ledger/ledger';
import type { ProvenanceServices } from '../provenance/services';
import type { SessionRunner } from '../runner/sessionRunner';
import type { SafetyLayers } from '../runner/safetyWiring';
import type { DelegationService } from '../delegation/service';
import type { McpClients } from '../mcp/clients';
import type { ComputeService } from '../compute/service';
import { targetView } from '../compute/targets';
import type { SettingsService } from '../settings/settingsService';
import type { ProviderService } from '../providers/service';
import { attachFile } from '../workspace/attach';
import { asWorkspaceAppError, listFolder, previewFile } from '../workspace/browse';
import { workspaceRelative } from '../workspace/safeFs';
import { readArtifactSource } from '../capabilities/tools/artifactTools';
import type { SkillCatalog } from '../skills/catalogView';
import type { SkillLibrary } from '../skills/library';
import type { EnvironmentService } from '../environments/service';
import { skillReadiness, skillsReadiness } from '../environments/skillReadiness';
import { MemoryService } from '../memory/memories';
import { NotebookCells } from '../runner/notebookCells';
import { defineHandlers, type HandlersFor } from './defineHandlers';
import { bibliographyEntries, formatBibliography } from '../export/bibliography';

/** What the routes reach, and nothing more (the core provides it; tests may pass a part). */
export interface ApiServices {
  readonly config: { readonly dataDir: string };
  readonly ledger: Ledger;
  readonly kernels: Pick<KernelSupervisor, 'execute' | 'interrupt' | 'extendCellLimit' | 'restart' | 'status' | 'openSession' | 'workspaceFor' | 'lease'>;
  readonly runner: Pick<SessionRunner, 'submit' | 'stop' | 'state'>;
  /** Child agents (issue 20): the user stops one from its card. */
  readonly delegation: Pick<DelegationService, 'stopFromUser'>;
  /** Compute targets and jobs (issue 23): the Jobs panel and Settings → Compute. */
  readonly compute: Pick<ComputeService, 'listTargets' | 'targets' | 'list' | 'refresh' | 'cancel' | 'logs'>;
  /** MCP servers (issue 22): Settings lists, adds, removes and starts them, and sets policy overrides. */
  readonly mcp: Pick<McpClients, 'view' | 'add' | 'remove' | 'connect' | 'setPolicy'>;
  readonly host: { readonly rules: RuleStore; readonly approvals: Pick<ApprovalService, 'decide'> };
  /** The review of a cell the user runs (absent: none, e.g. a test that passes part of the core). */
  readonly safety?: Pick<SafetyLayers, 'reviewUserCell'>;
  readonly settings: SettingsService;
  /** Model providers: readiness, the setup form, the connection test. */
  readonly providers: Pick<ProviderService, 'list' | 'configure' | 'test'>;
  readonly provenance: Pick<ProvenanceServices, 'evidence' | 'artifacts'>;
  readonly revealPath: ((file: string) => Promise<void>) | null;
  readonly skillCatalog: SkillCatalog;
  /** Warmed when a session opens, so the first kernel start and request do not parse every skill (absent in partial test cores). */
  readonly skills?: Pick<SkillLibrary, 'warmSoon'>;
  readonly environments: Pick<EnvironmentService, 'list' | 'use' | 'create' | 'rollback' | 'probes' | 'declarations' | 'catalog' | 'currentOrDefault'>;
  doctor(refresh?: boolean): Promise<DoctorReport>;
  startDemo(): Promise<{ session: SessionSummary; run: RunRecord }>;
  deleteSession(sessionId: string): Promise<void>;
}

/**
 * The one exhaustive handler map of the app: a missing or extra route is a compile
 * error. This object is the audited surface between the renderer and the core.
 */
export function createHandlers(core: ApiServices): HandlersFor<Routes> {
  // Every answer that replaces the Skills page's list or detail carries readiness, so a toggle never drops it.
  const catalogWithReadiness = async (catalog: SkillCatalogView, sessionId?: string): Promise<SkillCatalogView> => {
    const readiness = await skillsReadiness(catalog.skills, core.environments, { sessionId });
    return { ...catalog, skills: catalog.skills.map((s) => ({ ...s, readiness: readiness.get(s.name)! })) };
  };
  const detailWithReadiness = async (detail: SkillDetail, sessionId?: string): Promise<SkillDetail> => ({
    ...detail,
    readiness: await skillReadiness(detail, core.environments, { sessionId }),
  });
  // Memories the user manages (the Memory panel); the agent's go through the remember/forget tools.
  const memory = new MemoryService(() => core.ledger);
  // The Notebook tab's cells (issue 25): run under the session's kernel lease, every version recorded.
  const notebook = new NotebookCells({ userCells: () => core.ledger.userCells, kernels: core.kernels, lease: core.kernels.lease, provenance: () => core.provenance, recordCell: (cell, evidence) => core.ledger.recordUserCell(cell, evidence) });
  return defineHandlers<Routes>()({
    'doctor.get': (input) => core.doctor(input.refresh ?? false),
    'demo.start': () => core.startDemo(),
    'session.export': (input) =>
      exportToDataDir(
        { ledger: core.ledger, kernels: core.kernels, config: core.config, revealPath: core.revealPath, contributors: exportContributors(() => core.provenance) },
        input.sessionId,
        input.reveal,
      ),
    'workspace.attach': (input) => {
      core.ledger.sessions.require(input.sessionId);
      return attachFile(core.kernels.workspaceFor(input.sessionId), input.name, input.base64);
    },
    // The file browser (issue 25): through safeFs only; the session must exist (no folder is made for a stray id).
    'workspace.list': (input) => {
      core.ledger.sessions.require(input.sessionId);
      return listFolder(core.kernels.workspaceFor(input.sessionId), input.path);
    },
    'workspace.read': (input) => {
      core.ledger.sessions.require(input.sessionId);
      return previewFile(core.kernels.workspaceFor(input.sessionId), input.path, input.maxBytes);
    },
    'workspace.saveArtifact': async (input) => {
      core.ledger.sessions.require(input.sessionId);
      let file: { rel: string; bytes: Buffer };
      try {
        file = { rel: workspaceRelative(input.path), bytes: readArtifactSource(core.kernels.workspaceFor(input.sessionId), input.path) };
      } catch (error) {
        throw asWorkspaceAppError(error);
      }
      return core.provenance.artifacts.save({ sessionId: input.sessionId, path: file.rel, bytes: file.bytes, producer: { kind: 'user' } });
    },
    'kernel.execute': async (input) => {
      // The pre-execution review (issue 27) is in front of the user's cells too: a flagged cell runs only once approved.
      const review = await core.safety?.reviewUserCell(input.sessionId, input.language, input.code);
      // The main thread only waits while the kernel runs the cell, so the review's row is
      // written then (measured: the round trip's median drops by about a fifth); a cell that
      // must first wait for the kernel has it written at once. The answer waits for the row
      // (never fails on it). Committing the queued rows then as well was tried: it shortens
      // the tail (no timer's commit lands on a cell) but lengthens the median, as a commit
      // takes longer than a trivial cell.
      if (review && core.kernels.lease.view(input.sessionId).holder) void review.record();
      const onSent = review && (() => void review.record());
      try {
        return await notebook.run(input, onSent ? { onSent } : {});
      } finally {
        await review?.record();
      }
    },
    'kernel.interrupt': (input) => ({ interrupted: core.kernels.interrupt(input.sessionId, input.language) }),
    'kernel.extendCellLimit': (input) => core.kernels.extendCellLimit(input.sessionId, input.language, input.extendMs),
    // Refused while the agent's run, a cell or an environment switch holds the kernel (the lease).
    'kernel.restart': (input) => notebook.restart(input.sessionId, input.language),
    'kernel.status': (input) => ({ ...core.kernels.status(input.sessionId), lease: core.kernels.lease.view(input.sessionId) }),
    'kernel.variables': (input) => notebook.variables(input.sessionId, input.language),
    'notebook.cells': (input) => notebook.list(input.sessionId),
    'session.create': (input) => core.ledger.createSession(input.title),
    'session.list': () => core.ledger.sessions.list(),
    'session.get': (input) => {
      const detail = core.ledger.detail(input.sessionId);
      core.kernels.openSession(input.sessionId); // warm a kernel while the user reads
      core.skills?.warmSoon(); // and, once it is served, the skills a kernel start and the first request read
      return detail;
    },
    'session.rename': (input) => core.ledger.sessions.rename(input.sessionId, input.title, input.expectedRevision),
    'session.delete': async (input) => {
      // Runs cancelled, kernels stopped, in-memory state released; the ledger only hides it.
      await core.deleteSession(input.sessionId);
      return { deleted: true as const };
    },
    'session.open': (input) => {
      const detail = core.ledger.detail(input.sessionId);
      core.kernels.openSession(input.sessionId); // warm a kernel while the user reads
      core.skills?.warmSoon(); // and, once it is served, the skills a kernel start and the first request read
      const fromSeq = core.ledger.events.tailStart(input.sessionId, input.tailChunks ?? OPEN_TAIL_CHUNKS);
      const events = core.ledger.events.readFrom(input.sessionId, fromSeq - 1).map((e) => ({ sessionId: e.sessionId, seq: e.seq, runId: e.runId, chunk: e.chunk }));
      return { ...detail, fromSeq, events };
    },
    'session.earlier': (input) => {
      // One more than the page holds tells whether any is left before beforeSeq.
      const page = core.ledger.events.readTextBetween(input.sessionId, input.afterSeq, input.beforeSeq, input.limit + 1);
      const complete = page.seqs.length <= input.limit;
      if (!complete) {
        page.seqs.length = input.limit;
        page.runIds.length = input.limit;
        page.lines = page.lines.slice(0, page.lines.lastIndexOf('\n'));
      }
      return { sessionId: input.sessionId, ...page, complete };
    },
    'session.folded': (input) => {
      core.ledger.sessions.require(input.sessionId);
      const folded = core.ledger.folds.read(input.sessionId, input.beforeSeq);
      // A session folded by an older version, or never (imported, or from before stored folds):
      // the first open folds its chunks, and the app stores them folded for the next one.
      if (folded.throughSeq < input.beforeSeq - 1) void core.ledger.folds.catchUp(input.sessionId);
      return folded;
    },
    'session.replay': (input) => {
      const stored = core.ledger.events.readFrom(input.sessionId, input.afterSeq, input.limit + 1);
      const complete = stored.length <= input.limit;
      const events = stored.slice(0, input.limit).map((e) => ({ sessionId: e.sessionId, seq: e.seq, runId: e.runId, chunk: e.chunk }));
      return { events, lastSeq: core.ledger.events.lastSeqOf(input.sessionId), complete };
    },
    'run.submit': (input) => {
      const run = core.runner.submit(input);
      core.kernels.openSession(input.sessionId);
      return run;
    },
    'run.stop': (input) => core.runner.stop(input.sessionId),
    'run.state': (input) => core.runner.state(input.sessionId),
    'delegation.stop': (input) => core.delegation.stopFromUser(input.sessionId, input.runId),
    'mcp.list': () => core.mcp.view(),
    'mcp.add': (input) => core.mcp.add(input.json),
    'mcp.remove': (input) => core.mcp.remove(input.name),
    'mcp.connect': (input) => core.mcp.connect(input.name),
    'mcp.policy.set': (input) => core.mcp.setPolicy(input.server, input.tool, input.policy),
    'approval.rule.list': () => core.host.rules.listRules(),
    'approval.rule.revoke': (input) => ({ revoked: core.host.rules.removeRule(input.id) }),
    'approval.decide': (input) => core.host.approvals.decide(input.requestId, input.answer),
    'settings.get': () => core.settings.view(),
    'settings.language': (input) => {
      core.settings.setLanguage(input.language);
      return null;
    },
    'settings.update': async (input) => {
      const view = core.settings.update(input);
      if (input.defaultProvider !== undefined) await core.doctor(true); // the System page marks the new default
      return view;
    },
    'settings.key.set': async (input) => {
      const view = core.settings.setKey(input.providerId, input.key);
      await core.doctor(true); // the provider table now shows the key's source
      return view;
    },
    'settings.key.clear': async (input) => {
      const view = core.settings.clearKey(input.providerId);
      await core.doctor(true);
      return view;
    },
    'provider.list': (input) => core.providers.list(input.refresh ?? false),
    'provider.configure': async (input) => {
      const view = await core.providers.configure(input);
      await core.doctor(true); // the System page shows the new key, base URL and model
      return view;
    },
    'provider.test': (input) => core.providers.test(input),
    'evidence.list': (input) => core.provenance.evidence.list(input.sessionId, { ...(input.kind ? { kind: input.kind } : {}), ...(input.limit ? { limit: input.limit } : {}) }),
    'evidence.bibliography': (input) => {
      const entries = bibliographyEntries(core.provenance.evidence.list(input.sessionId), { includeSearchResults: input.includeSearchResults ?? false });
      return { format: input.format, text: formatBibliography(entries, input.format), count: entries.length };
    },
    'evidence.get': (input) => {
      const found = core.provenance.evidence.get(input.sessionId, input.id);
      if (!found) throw new AppError('not_found', `No evidence ${input.id} in session ${input.sessionId}.`);
      return found;
    },
    'artifact.list': (input) => core.provenance.artifacts.list(input.sessionId),
    'artifact.versions': (input) => core.provenance.artifacts.versions(input.artifactId),
    'artifact.read': (input) => core.provenance.artifacts.read(input.versionId, input.maxBytes),
    'env.list': (input) => {
      if (input.refresh) core.environments.probes.clear();
      return core.environments.list(input.sessionId);
    },
    // A switch, a rollback and the switch after a build restart the kernel: each waits for the
    // agent's turn or the user's cell in progress (the kernel lease); the build itself does not.
    'env.use': (input) => core.kernels.lease.run(input.sessionId, { kind: 'environment', id: input.environmentId, label: 'an environment switch' }, () => core.environments.use(input.sessionId, input.environmentId)),
    'env.create': (input) =>
      core.environments.create(input.sessionId, input, (work) => core.kernels.lease.run(input.sessionId, { kind: 'environment', id: `${input.kind ?? 'new'}:${input.name}`, label: 'an environment switch' }, work)),
    'env.rollback': (input) => core.kernels.lease.run(input.sessionId, { kind: 'environment', id: `rollback:${input.language}`, label: 'an environment rollback' }, () => core.environments.rollback(input.sessionId, input.language)),
    'memory.list': (input) => ({ memories: memory.list(input.sessionId ?? null) }),
    'memory.add': (input) => memory.remember({ text: input.text, scope: input.scope, sessionId: input.sessionId ?? null, origin: 'user' }),
    'memory.edit': (input) => memory.edit(input.id, input.text, 'user'),
    'memory.forget': (input) => ({ id: memory.forget(input.id, 'user').id }),
    'plan.get': (input) => {
      core.ledger.sessions.require(input.sessionId);
      return { sessionId: input.sessionId, steps: core.ledger.memory.plan(input.sessionId) };
    },
    'skills.list': (input) => catalogWithReadiness(core.skillCatalog.list(), input.sessionId),
    'skills.get': (input) => detailWithReadiness(core.skillCatalog.get(input.name), input.sessionId),
    'skills.setEnabled': (input) => catalogWithReadiness(core.skillCatalog.setEnabled(input.name, input.enabled)),
    'skills.create': (input) => detailWithReadiness(core.skillCatalog.create(input.name, input.description)),
    'skills.reveal': async (input) => {
      const dir = core.skillCatalog.dirOf(input.name);
      if (!core.revealPath) return { revealed: false, path: dir };
      await core.revealPath(dir);
      return { revealed: true, path: dir };
    },
    'compute.targets': () => core.compute.listTargets(),
    'compute.targets.save': async (input) => {
      core.compute.targets.save(input.target);
      return core.compute.targets.list().map(targetView);
    },
    'compute.targets.remove': async (input) => {
      if (!core.compute.targets.remove(input.name)) throw new AppError('not_found', `No compute target "${input.name}" to remove.`);
      return core.compute.targets.list().map(targetView);
    },
    'compute.jobs': async (input) => {
      core.ledger.sessions.require(input.sessionId);
      return core.compute.list(input.sessionId);
    },
    'compute.job.refresh': (input) => core.compute.refresh(input.jobId),
    'compute.job.cancel': (input) => core.compute.cancel(input.jobId),
    'compute.job.logs': (input) => core.compute.logs(input.jobId),
    'artifact.reveal': async (input) => {
      const file = core.provenance.artifacts.blobPath(input.versionId);
      if (!core.revealPath) return { revealed: false, path: file };
      await core.revealPath(file);
      return { revealed: true, path: file };
    },
  });
}
