import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ComputeJobLogs, ComputeJobView, ComputeLanguage, ComputeResources, ComputeTargetConfig, ComputeTargetView } from '../../../src-preload/contract/compute';
import { TERMINAL_JOB_STATES } from '../../../src-preload/contract/compute';
import { AppError } from '../../../src-preload/contract/errors';
import type { Ledger } from '../ledger/ledger';
import type { ArtifactService } from '../provenance/artifactService';
import { randomId } from '../records/ids';
import { errorMessage } from '../shared/errorMessage';
import { harvestJob, readJobFile } from './harvest';
import { claimsStaleBefore, harvestClaim } from './harvestClaim';
import { jobPath, scriptHead, sha256, stageJobFolder, type InputRequest } from './jobFolder';
import { foldJob, lastStateData, type JobSpec } from './jobState';
import { pollDue, pollFailureData } from './pollBackoff';
import { STDERR_LOG, STDOUT_LOG, type Scheduler, type SchedulerStatus } from './scheduler';
import { SlurmScheduler } from './slurm';
import { SshHostScheduler } from './sshHost';
import { PID_WAIT_MS, recoverSubmission, remoteJobRoot, submitterMayBeAlive, submitterStamp, unsureOutcome, type Submitter } from './submitRecovery';
import { parseResources, TargetStore, targetView } from './targets';
import { localTransport, sshTransport, type Transport } from './transport';

/**
 * Compute jobs: submission (stage, upload, hand to the scheduler), polling that survives
 * the app (every open job is in the ledger; `resume()` at start picks them up), harvest of
 * finished jobs into artifact versions, and cancel. Every state comes from the target;
 * when the target cannot be reached the job keeps its last known state and says why.
 */

export interface ComputeServiceDeps {
  dataDir: string;
  processEnv: NodeJS.ProcessEnv;
  ledger: () => Ledger;
  artifacts: () => ArtifactService;
  workspaceFor(sessionId: string): string;
  /** How often open jobs are polled (default 5 s). */
  pollMs?: number;
  /** How long a target may stay unreachable before automatic polling of its jobs stops (default 10 min). */
  unreachableMs?: number;
  /** How long a launched job that never reported its process id is waited for (default PID_WAIT_MS). */
  pidWaitMs?: number;
  /** Told each time a job's view changes (the UI's Jobs panel). */
  onChange?: (job: ComputeJobView) => void;
}

export interface SubmitInput {
  sessionId: string;
  runId: string | null;
  target: string;
  language: ComputeLanguage;
  script: string;
  inputs?: InputRequest[];
  outputs?: string[];
  resources?: ComputeResources;
}

/** What a job's spec keeps of its target: enough to reach it again after the target is edited. Never a secret. */
interface StoredSpec extends JobSpec {
  target: ComputeTargetConfig;
  /** Who wrote the row and submits it (absent on rows from before it was recorded). */
  submitter?: Submitter;
}

const MAX_WAIT_S = 600;
/** How much of each log the Jobs panel shows (characters). */
const LOG_TAIL = 64 * 1024;

export class ComputeService {
  readonly targets: TargetStore;
  private readonly pollMs: number;
  private readonly unreachableMs: number;
  private timer: NodeJS.Timeout | null = null;
  private readonly inflight = new Map<string, Promise<ComputeJobView>>();
  /** Jobs this process is submitting right now (their row exists, their `submitted` event not yet). */
  private readonly submitting = new Set<string>();
  private closed = false;
  /** Names this poller in harvest claims. */
  private readonly instance = randomId('poller_');

  constructor(private readonly deps: ComputeServiceDeps) {
    this.targets = new TargetStore(deps.dataDir);
    this.pollMs = deps.pollMs ?? 5_000;
    this.unreachableMs = deps.unreachableMs ?? 10 * 60_000;
  }

  /**
   * The target a job is polled through: the one it was submitted to, with the connection
   * settings of the configured target of that name when it is still the same host and kind
   * (so a fixed port, user, key or known_hosts file applies to a job already out there).
   */
  private pollTarget(snapshot: ComputeTargetConfig): ComputeTargetConfig {
    try {
      const current = this.targets.get(snapshot.name);
      return current.kind === snapshot.kind && (current.host ?? null) === (snapshot.host ?? null) ? current : snapshot;
    } catch {
      // Removed or unreadable: the job is still reached as it was submitted.
      return snapshot;
    }
  }

  listTargets(): ComputeTargetView[] {
    return this.targets.list().map(targetView);
  }

  private transportFor(target: ComputeTargetConfig): Transport {
    return target.host ? sshTransport(target, this.deps.processEnv, path.join(this.deps.dataDir, 'compute', 'ssh')) : localTransport(this.deps.processEnv);
  }

  private schedulerFor(target: ComputeTargetConfig, transport: Transport): Scheduler {
    return target.kind === 'slurm' ? new SlurmScheduler(transport) : new SshHostScheduler(transport);
  }

  /** Resources as submitted: the job's, then the target's defaults, then its partition. */
  resolveResources(target: ComputeTargetConfig, asked: ComputeResources = {}): ComputeResources {
    const merged: ComputeResources = { ...target.defaults, ...Object.fromEntries(Object.entries(asked).filter(([, v]) => v !== undefined)) };
    const partition = merged.partition ?? target.partition;
    if (partition) merged.partition = partition;
    if (target.kind === 'ssh' && merged.partition) delete merged.partition;
    // Every entry point (tool, cell, CLI, IPC) ends here: a zero, negative or absurd value never reaches sbatch.
    return parseResources(merged);
  }

  async submit(input: SubmitInput): Promise<ComputeJobView> {
    if (this.closed) throw new AppError('unavailable', 'The app is shutting down; submit the job again after it restarts.', 'shutting_down');
    const target = this.targets.get(input.target);
    const ledger = this.deps.ledger();
    ledger.sessions.require(input.sessionId);
    const outputs = [...new Set((input.outputs ?? []).map((o) => jobPath(o, 'Output', input.language)))];
    const resources = this.resolveResources(target, input.resources);
    const id = randomId('job_');
    const localDir = target.host ? path.join(this.deps.dataDir, 'compute', 'jobs', id, 'stage') : path.join(this.localWorkRoot(target), id);
    const staged = stageJobFolder({
      dir: localDir,
      sessionId: input.sessionId,
      workspace: this.deps.workspaceFor(input.sessionId),
      language: input.language,
      script: input.script,
      inputs: input.inputs ?? [],
      target,
      resources,
      artifacts: this.deps.artifacts,
    });
    const spec: StoredSpec = { language: input.language, scriptHead: scriptHead(input.script), scriptFile: staged.scriptFile, inputs: staged.inputs, outputs, resources, localDir, target, submitter: submitterStamp(this.instance), ...(target.account ? { account: target.account } : {}) };
    // The row is durable before anything reaches the target: a crash mid-submission is visible at the next start.
    ledger.compute.create({ id, sessionId: input.sessionId, runId: input.runId, target: target.name, targetKind: target.kind, scriptSha256: sha256(input.script), spec });
    this.submitting.add(id);
    try {
      const transport = this.transportFor(target);
      const remoteDir = transport.remote ? await this.remoteJobDir(transport, target, id) : localDir;
      await transport.upload(localDir, remoteDir);
      const schedulerJobId = await this.schedulerFor(target, transport).submit({ jobId: id, dir: remoteDir, resources, ...(target.account ? { account: target.account } : {}) });
      ledger.compute.append(id, 'submitted', { schedulerJobId, remoteDir, where: transport.where });
    } catch (error) {
      ledger.compute.append(id, 'submit_failed', { reason: errorMessage(error) });
      this.changed(id);
      throw error instanceof AppError ? error : new AppError('unavailable', `Submitting to "${target.name}" failed: ${errorMessage(error)}`);
    } finally {
      this.submitting.delete(id);
    }
    this.changed(id);
    this.schedule(this.pollMs);
    return this.view(id);
  }

  /** A local target's work root: "~/x" and a relative root are under the home folder, as on a remote target (never under the app's working directory). */
  private localWorkRoot(target: ComputeTargetConfig): string {
    if (!target.workRoot) return path.join(this.deps.dataDir, 'compute', 'work');
    return path.resolve(this.deps.processEnv.HOME ?? os.homedir(), target.workRoot.replace(/^~(\/|$)/, ''));
  }

  /** Makes `<workRoot>/<id>` on the target and answers its absolute path. */
  private async remoteJobDir(transport: Transport, target: ComputeTargetConfig, id: string): Promise<string> {
    const root = remoteJobRoot(target);
    // A relative root is under the remote home (ssh starts there).
    const r = await transport.exec(['bash', '-c', 'mkdir -p -- "$1" && cd -- "$1" && pwd', 'o4s-mkdir', `${root}/${id}`]);
    const dir = r.stdout.trim().split('\n').pop() ?? '';
    if (r.code !== 0 || !dir.startsWith('/')) throw new AppError('unavailable', `Could not create the job folder ${root}/${id} on ${transport.where}: ${r.stderr.trim() || `exit ${r.code}`}. Check the target's workRoot.`);
    return dir;
  }

  view(jobId: string): ComputeJobView {
    const repo = this.deps.ledger().compute;
    return foldJob(repo.require(jobId), repo.events(jobId));
  }

  list(sessionId?: string): ComputeJobView[] {
    const repo = this.deps.ledger().compute;
    return repo.list(sessionId).map((j) => foldJob(j, repo.events(j.id)));
  }

  /** Asks the target once (harvesting a finished job); concurrent callers share one query. */
  refresh(jobId: string): Promise<ComputeJobView> {
    const running = this.inflight.get(jobId);
    if (running) return running;
    const p = this.poll(jobId).finally(() => this.inflight.delete(jobId));
    this.inflight.set(jobId, p);
    return p;
  }

  private async poll(jobId: string): Promise<ComputeJobView> {
    const repo = this.deps.ledger().compute;
    const record = repo.require(jobId);
    const events = repo.events(jobId);
    const view = foldJob(record, events);
    if (view.harvested || this.submitting.has(jobId)) return view;
    const spec = record.spec as StoredSpec;
    const target = this.pollTarget(spec.target);
    const transport = this.transportFor(target);
    if (!view.schedulerJobId || !view.remoteDir) {
      // Another process (the CLI, the app) may be submitting it right now: it records the id itself.
      if (submitterMayBeAlive(spec.submitter, record.createdAt)) return view;
      // Its submitter died: the target says whether the job reached it (never resubmitted here), in the work root it was submitted under (the snapshot's, not an edited one).
      const found = await recoverSubmission({ jobId, createdAt: record.createdAt, localDir: spec.localDir, target: spec.target, transport, scheduler: this.schedulerFor(target, transport) });
      // Another process may be recovering the same row: the first answer recorded settles it.
      if (found.kind === 'unreachable') this.pollFailed(jobId, events, target, transport.where, found.message);
      else if (found.kind === 'absent') repo.settleSubmission(jobId, 'submit_failed', { reason: `the app stopped before the job reached the target: ${found.reason}, so it was never submitted. Submit it again.` });
      else if (found.kind === 'adopted') repo.settleSubmission(jobId, 'submitted', { schedulerJobId: found.schedulerJobId, remoteDir: found.remoteDir, where: transport.where, recovered: true });
      else if (found.kind === 'unsure') {
        // Never silent, never forever: the reason is shown while it waits, and the wait is bounded.
        const outcome = unsureOutcome(found, transport.where, record.createdAt, this.deps.pidWaitMs ?? PID_WAIT_MS);
        if (outcome.kind === 'fail') repo.settleSubmission(jobId, 'submit_failed', { reason: outcome.reason });
        else if (lastStateData(events)?.reason === outcome.reason) return view;
        else repo.append(jobId, 'state', { state: 'pending', reason: outcome.reason });
      }
      if (found.kind !== 'adopted') {
        if (found.kind !== 'unreachable') this.changed(jobId);
        return this.view(jobId);
      }
      this.changed(jobId);
      return this.poll(jobId);
    }
    let status: SchedulerStatus;
    try {
      status = await this.schedulerFor(target, transport).query(view.schedulerJobId, view.remoteDir);
    } catch (error) {
      this.pollFailed(jobId, events, target, transport.where, errorMessage(error));
      return this.view(jobId);
    }
    // The target answers again: the automatic poller (stopped for an unreachable target) goes on.
    this.schedule(this.pollMs);
    const last = lastStateData(events);
    const data = { ...status } as Record<string, unknown>;
    if (!TERMINAL_JOB_STATES.includes(status.state)) {
      // Elapsed time moves on every poll; a new event is written when anything else changes.
      const same = last && Object.keys(data).every((k) => k === 'elapsedSeconds' || last[k] === data[k]);
      if (!same || view.pollError) {
        repo.append(jobId, 'state', data);
        this.changed(jobId);
      }
      return this.view(jobId);
    }
    // The terminal report is also the claim of the harvest: one poller harvests, the others wait.
    if (!repo.claimHarvest(jobId, { ...data, ...harvestClaim(this.instance) }, claimsStaleBefore(events))) return this.view(jobId);
    this.changed(jobId);
    try {
      const harvested = await harvestJob({
        job: this.view(jobId),
        final: status,
        transport,
        remoteDir: view.remoteDir,
        harvestDir: path.join(this.deps.dataDir, 'compute', 'jobs', jobId, 'harvest'),
        artifacts: this.deps.artifacts(),
      });
      repo.append(jobId, 'harvested', harvested as unknown as Record<string, unknown>);
    } catch (error) {
      this.pollFailed(jobId, repo.events(jobId), target, transport.where, `harvest failed (retried at the next poll): ${errorMessage(error)}`, { releasesClaim: true });
    }
    this.changed(jobId);
    return this.view(jobId);
  }

  /**
   * Records a failed poll. After the target has not answered for `unreachableMs` (and a few
   * tries, backing off), the job is marked unreachable: the automatic poller leaves it, and
   * the message names the target and what to fix; any later refresh asks again.
   */
  private pollFailed(jobId: string, events: ReturnType<Ledger['compute']['events']>, target: ComputeTargetConfig, where: string, message: string, extra: Record<string, unknown> = {}): void {
    const data = pollFailureData({ jobId, events, targetName: target.name, where, message, unreachableMs: this.unreachableMs });
    this.deps.ledger().compute.append(jobId, 'poll_error', { ...data, ...extra });
    this.changed(jobId);
  }

  /** The job once harvested; waits up to `waitSeconds` for it (0: answer now, refreshed once). */
  async result(jobId: string, waitSeconds = 0, signal?: AbortSignal): Promise<ComputeJobView> {
    const until = Date.now() + Math.min(waitSeconds, MAX_WAIT_S) * 1000;
    for (;;) {
      const view = await this.refresh(jobId);
      if (view.harvested || view.unreachable || Date.now() >= until || signal?.aborted || this.closed) return view;
      await new Promise((r) => setTimeout(r, Math.min(this.pollMs, Math.max(50, until - Date.now()))));
    }
  }

  async cancel(jobId: string): Promise<ComputeJobView> {
    const view = this.view(jobId);
    if (view.harvested || TERMINAL_JOB_STATES.includes(view.state)) throw new AppError('conflict', `Job ${jobId} already ended (${view.state}); nothing to cancel.`);
    if (!view.schedulerJobId || !view.remoteDir) throw new AppError('conflict', `Job ${jobId} has not reached its target yet; cancel it again in a moment.`);
    const spec = this.deps.ledger().compute.require(jobId).spec as StoredSpec;
    const target = this.pollTarget(spec.target);
    const transport = this.transportFor(target);
    this.deps.ledger().compute.append(jobId, 'cancel_requested', {});
    await this.schedulerFor(target, transport).cancel(view.schedulerJobId, view.remoteDir);
    this.schedule(0);
    return this.refresh(jobId);
  }

  /** stdout and stderr: the harvested evidence, or the last bytes on the target while the job runs. */
  async logs(jobId: string): Promise<ComputeJobLogs> {
    const view = this.view(jobId);
    const tail = (s: string) => (s.length > LOG_TAIL ? s.slice(-LOG_TAIL) : s);
    if (view.harvested) {
      const read = (log: ComputeJobView['logs']['stdout']) => {
        if (!log) return { text: '', truncated: false };
        const bytes = this.deps.artifacts().read(log.versionId, 4 * LOG_TAIL);
        const text = Buffer.from(bytes.base64, 'base64').toString('utf8');
        return { text: tail(text), truncated: bytes.truncated || text.length > LOG_TAIL };
      };
      const [out, err] = [read(view.logs.stdout), read(view.logs.stderr)];
      return { jobId, stdout: out.text, stderr: err.text, source: 'harvested', truncated: out.truncated || err.truncated };
    }
    if (!view.remoteDir) return { jobId, stdout: '', stderr: view.reason ?? '', source: 'target', truncated: false };
    const spec = this.deps.ledger().compute.require(jobId).spec as StoredSpec;
    const target = this.pollTarget(spec.target);
    const transport = this.transportFor(target);
    const remoteDir = view.remoteDir;
    const read = async (rel: string) => {
      // On this machine through the safe read: a log the job replaced by a symlink is not followed.
      if (!transport.remote) return readJobFile(remoteDir, rel, LOG_TAIL + 1)?.toString('utf8') ?? '';
      const r = await transport.exec(['tail', '-c', String(LOG_TAIL + 1), `${remoteDir}/${rel}`]);
      // Not written yet (the job is pending): nothing to show, not an error.
      return r.code === 0 ? r.stdout : '';
    };
    const [stdout, stderr] = [await read(STDOUT_LOG), await read(STDERR_LOG)];
    return { jobId, stdout: tail(stdout), stderr: tail(stderr), source: 'target', truncated: stdout.length > LOG_TAIL || stderr.length > LOG_TAIL };
  }

  /** Picks up the jobs left open by an earlier run of the app (a job that finished meanwhile is harvested now). */
  resume(): void {
    this.schedule(0);
  }

  /**
   * Polls the open jobs; answers their views. Asked by a user (the CLI's `status`), every
   * open job is asked now. For the automatic poller (`auto`), a job whose last polls failed
   * waits out its back-off, and a job marked unreachable is left until a user retries it.
   */
  async pollOpen(options: { auto?: boolean } = {}): Promise<ComputeJobView[]> {
    const repo = this.deps.ledger().compute;
    const due = (id: string): boolean => {
      if (!options.auto) return true;
      const events = repo.events(id);
      return !foldJob(repo.require(id), events).unreachable && pollDue(events, this.pollMs);
    };
    return Promise.all(repo.open().map((j) => (due(j.id) ? this.refresh(j.id).catch(() => this.view(j.id)) : Promise.resolve(this.view(j.id)))));
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    if (this.timer) {
      if (ms > 0) return;
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.tick();
    }, ms);
    // The poller never keeps a process alive on its own (the CLI exits when its command is done).
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.closed) return;
    let open: ComputeJobView[] = [];
    try {
      open = (await this.pollOpen({ auto: true })).filter((v) => !v.harvested && !v.unreachable);
    } catch {
      // The ledger closed under the tick (shutdown): nothing more to poll.
      return;
    }
    // Only unreachable jobs left: the poller rests until a user retries one (a success schedules it again).
    if (open.length) this.schedule(this.pollMs);
  }

  private changed(jobId: string): void {
    if (!this.deps.onChange) return;
    try {
      this.deps.onChange(this.view(jobId));
    } catch {
      // A listener's failure must not fail the job's bookkeeping.
    }
  }

  /** Stops polling and waits for queries in flight (before the ledger closes). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.inflight.values()]);
  }

  /** The local folders of a job (staging and harvest), for diagnostics. */
  folders(jobId: string): { local: string; harvest: string } {
    const spec = this.deps.ledger().compute.require(jobId).spec as StoredSpec;
    const harvest = path.join(this.deps.dataDir, 'compute', 'jobs', jobId, 'harvest');
    return { local: spec.localDir, harvest: fs.existsSync(harvest) ? harvest : spec.localDir };
  }
}
