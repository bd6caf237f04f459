import type { ComputeHarvestedOutput, ComputeInput, ComputeJobState, ComputeJobView, ComputeLanguage, ComputeResources } from '../../../src-preload/contract/compute';
import type { DataPartData } from '../../../src-preload/contract/dataParts';
import type { ComputeJobEvent, ComputeJobRecord } from '../ledger/computeJobsRepo';

/** What compute_jobs.spec_json holds (written once at submission). */
export interface JobSpec {
  language: ComputeLanguage;
  scriptHead: string;
  scriptFile: string;
  inputs: ComputeInput[];
  outputs: string[];
  resources: ComputeResources;
  /** The local job folder (staging; for a local Slurm target also where it runs). */
  localDir: string;
  account?: string;
}

export interface HarvestedData {
  state: ComputeJobState;
  reason: string | null;
  exitCode: number | null;
  outputs: ComputeHarvestedOutput[];
  missing: string[];
  logs: { stdout: ComputeHarvestedOutput | null; stderr: ComputeHarvestedOutput | null };
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** The job as its events tell it: the last state report, the harvest's verdict once there is one. */
export function foldJob(job: ComputeJobRecord, events: ComputeJobEvent[]): ComputeJobView {
  const spec = job.spec as JobSpec;
  const view: ComputeJobView = {
    id: job.id,
    sessionId: job.sessionId,
    target: job.target,
    targetKind: job.targetKind,
    language: spec.language,
    scriptSha256: job.scriptSha256,
    scriptHead: spec.scriptHead,
    inputs: spec.inputs,
    outputs: spec.outputs,
    resources: spec.resources,
    createdAt: job.createdAt,
    schedulerJobId: null,
    remoteDir: null,
    state: 'pending',
    reason: null,
    exitCode: null,
    node: null,
    partition: spec.resources.partition ?? null,
    elapsedSeconds: null,
    startedAt: null,
    endedAt: null,
    harvested: false,
    outputsHarvested: [],
    missingOutputs: [],
    logs: { stdout: null, stderr: null },
    lastPolledAt: null,
    pollError: null,
    unreachable: false,
  };
  for (const e of events) {
    const d = e.data;
    switch (e.kind) {
      case 'submitted':
        view.schedulerJobId = str(d.schedulerJobId);
        view.remoteDir = str(d.remoteDir);
        view.reason = null;
        break;
      case 'submit_failed':
        view.state = 'failed';
        view.reason = str(d.reason);
        view.harvested = true;
        break;
      case 'state':
        view.state = d.state as ComputeJobState;
        view.reason = str(d.reason);
        view.exitCode = num(d.exitCode);
        view.node = str(d.node) ?? view.node;
        view.partition = str(d.partition) ?? view.partition;
        view.elapsedSeconds = num(d.elapsedSeconds);
        view.startedAt = str(d.startedAt) ?? view.startedAt;
        view.endedAt = str(d.endedAt);
        view.lastPolledAt = e.at;
        view.pollError = null;
        view.unreachable = false;
        break;
      case 'poll_error':
        view.lastPolledAt = e.at;
        view.pollError = str(d.message);
        view.unreachable = d.unreachable === true;
        break;
      case 'cancel_requested':
        break;
      case 'harvested': {
        const h = d as unknown as HarvestedData;
        view.state = h.state;
        view.reason = h.reason;
        view.exitCode = h.exitCode;
        view.harvested = true;
        view.outputsHarvested = h.outputs;
        view.missingOutputs = h.missing;
        view.logs = h.logs;
        view.pollError = null;
        view.unreachable = false;
        break;
      }
    }
  }
  return view;
}

/** The last reported state, to append a `state` event only when something changed. */
export function lastStateData(events: ComputeJobEvent[]): Record<string, unknown> | null {
  for (let i = events.length - 1; i >= 0; i--) if (events[i]!.kind === 'state') return events[i]!.data;
  return null;
}

/** The failed polls since the target last answered: how many, since when, and the last one's time. */
export function pollTrouble(events: ComputeJobEvent[]): { failures: number; since: string | null; lastAt: string | null } {
  let failures = 0;
  let since: string | null = null;
  let lastAt: string | null = null;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.kind !== 'poll_error') break;
    failures++;
    since = e.at;
    lastAt ??= e.at;
  }
  return { failures, since, lastAt };
}

/** The conversation step of a job (`data-compute-job`), from its view. */
export function jobStepData(j: ComputeJobView): DataPartData['compute-job'] {
  return {
    jobId: j.id,
    target: j.target,
    state: j.state,
    exitCode: j.exitCode,
    elapsedSeconds: j.elapsedSeconds,
    reason: j.pollError ? `${j.unreachable ? 'polling stopped, target unreachable' : 'target unreachable'}: ${j.pollError}` : j.reason,
    harvested: j.harvested,
    outputs: j.outputsHarvested.map((o) => o.path),
    missing: j.missingOutputs,
  };
}
