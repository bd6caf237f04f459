import { z } from 'zod';
import type { ComputeJobView } from '../../../src-preload/contract/compute';
import { AppError } from '../../../src-preload/contract/errors';
import { defineTool, reasonField, type Tool, type ToolContext } from '../capabilities/define';
import { errorMessage } from '../shared/errorMessage';
import { readWorkspaceFile } from '../workspace/safeFs';
import { scriptHead } from './jobFolder';
import type { ComputeService } from './service';

/**
 * compute_targets, compute_submit, compute_status, compute_result, compute_cancel: all
 * offered on demand (find_tools), and in cells as host.compute.<name>. Submission asks
 * every time, with the job's summary; the others read or end the session's own jobs.
 */

const targetName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/).describe('A configured target (compute_targets lists them).');
const jobId = z.string().regex(/^job_[a-z2-7]{16}$/).describe('The job id compute_submit returned.');
const relPath = z.string().min(1).max(512);

export const submitInput = z
  .object({
    target: targetName,
    language: z.enum(['python', 'r', 'shell']).describe('How the script runs: python3, Rscript or bash on the target.'),
    script: z.string().min(1).max(256 * 1024).optional().describe('The job script; it runs in the job folder, where inputs are staged and outputs must be written.'),
    script_path: relPath.optional().describe('Instead of script: a workspace file holding it (a saved script).'),
    inputs: z
      .array(
        z
          .object({
            workspace: relPath.optional().describe('A workspace file to stage.'),
            artifact_version: z.string().regex(/^av_[a-z2-7]{16}$/).optional().describe('An artifact version to stage.'),
            as: relPath.optional().describe('Its path in the job folder (default: its own path).'),
          })
          .strict(),
      )
      .max(200)
      .optional(),
    outputs: z.array(relPath).max(200).optional().describe('Files the script must write (relative to the job folder); each comes back as an artifact version. A missing one fails the job.'),
    cpus: z.number().int().min(1).max(4096).optional(),
    memory_mb: z.number().int().min(1).optional(),
    time_limit_min: z.number().int().min(1).optional(),
    gpus: z.number().int().min(0).max(64).optional(),
    partition: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,100}$/).optional(),
    reason: reasonField,
  })
  .strict();
type SubmitArgs = z.output<typeof submitInput>;

/** A short text of a job for the model: state, exit code, outputs, and why. */
export function jobSummary(j: ComputeJobView): Record<string, unknown> {
  return {
    job_id: j.id,
    target: j.target,
    state: j.state,
    exit_code: j.exitCode,
    reason: j.reason,
    scheduler_job_id: j.schedulerJobId,
    node: j.node,
    partition: j.partition,
    elapsed_s: j.elapsedSeconds,
    harvested: j.harvested,
    outputs: j.outputsHarvested.map((o) => ({ path: o.path, version_id: o.versionId, evidence_id: o.evidenceId, sha256: o.sha256, size: o.size })),
    missing_outputs: j.missingOutputs,
    stdout: j.logs.stdout && { version_id: j.logs.stdout.versionId, evidence_id: j.logs.stdout.evidenceId },
    stderr: j.logs.stderr && { version_id: j.logs.stderr.versionId, evidence_id: j.logs.stderr.evidenceId },
    ...(j.pollError ? { target_unreachable: j.pollError } : {}),
  };
}

function ownJob(service: ComputeService, id: string, ctx: ToolContext): ComputeJobView {
  const view = service.view(id);
  if (view.sessionId !== ctx.sessionId) throw new AppError('not_found', `No compute job ${id} in this session; compute_status lists this session's jobs.`);
  return view;
}

function scriptOf(args: SubmitArgs, workspace: string | null): string {
  if (args.script && args.script_path) throw new AppError('invalid_input', 'Give the job either script or script_path, not both.');
  if (args.script) return args.script;
  if (!args.script_path || !workspace) throw new AppError('invalid_input', 'A job needs a script (the text) or script_path (a workspace file holding it).');
  return readWorkspaceFile(workspace, args.script_path).bytes.toString('utf8');
}

/** The approval's text: what runs where, with what, and what comes back. */
export function submitSummary(service: ComputeService, args: SubmitArgs): string {
  const lines: string[] = [];
  try {
    const target = service.targets.get(args.target);
    const r = service.resolveResources(target, { cpus: args.cpus, memoryMb: args.memory_mb, timeLimitMin: args.time_limit_min, gpus: args.gpus, partition: args.partition });
    const where = target.host ? `${target.user ? `${target.user}@` : ''}${target.host}` : 'this machine';
    lines.push(`Target: ${target.name} (${target.kind} on ${where}${target.account ? `, account ${target.account}` : ''})`);
    lines.push(`Resources: ${r.cpus ?? 1} CPU, ${r.memoryMb ? `${r.memoryMb} MB` : 'default memory'}, ${r.timeLimitMin ? `${r.timeLimitMin} min limit` : 'no time limit'}, ${r.gpus ?? 0} GPU${r.partition ? `, partition ${r.partition}` : ''}`);
  } catch (error) {
    lines.push(`Target: ${args.target} (${errorMessage(error)})`);
  }
  lines.push(`Script (${args.language}):`, args.script ? scriptHead(args.script) : `  the workspace file ${args.script_path ?? '(none)'}`);
  const inputs = (args.inputs ?? []).map((i) => i.workspace ?? i.artifact_version ?? '?');
  lines.push(`Inputs: ${inputs.length ? inputs.join(', ') : 'none'}`, `Outputs: ${(args.outputs ?? []).join(', ') || 'none'}`);
  return lines.join('\n');
}

export function computeTools(service: () => ComputeService, workspaceFor: (sessionId: string) => string): Tool[] {
  const text = (value: unknown) => JSON.stringify(value);
  return [
    defineTool({
      name: 'compute_targets',
      description: 'List the configured compute targets (Slurm clusters, SSH hosts) with kind, host, partition and default resources.',
      input: z.object({}).strict(),
      sideEffect: 'read',
      defaultPolicy: 'allow',
      onDemand: true,
      hostMethods: ['compute.targets'],
      resourceKeys: () => [],
      target: () => 'compute targets',
      execute: async () => {
        const targets = service().listTargets();
        const out = targets.map((t) => ({ name: t.name, kind: t.kind, where: t.where, partition: t.partition ?? null, account: t.account ?? null, defaults: t.defaults ?? {} }));
        return { text: targets.length ? text(out) : 'No compute target is configured. Ask the user to add one (Settings → Compute, or README "Adding a cluster").', output: targets };
      },
    }),
    defineTool({
      name: 'compute_submit',
      description:
        'Submit a script (python, r, shell) as a job on a compute target with staged inputs, declared outputs and resources. Asks the user each time. Returns the job id; outputs come back as artifact versions.',
      input: submitInput,
      sideEffect: 'exec',
      defaultPolicy: 'ask',
      askEveryTime: true,
      onDemand: true,
      hostMethods: ['compute.submit'],
      resourceKeys: (a) => [`compute:${a.target}`],
      target: (a) => `compute:${a.target}`,
      approvalDetail: (a) => submitSummary(service(), a),
      execute: async (a, ctx) => {
        const job = await service().submit({
          sessionId: ctx.sessionId,
          runId: ctx.runId,
          target: a.target,
          language: a.language,
          script: scriptOf(a, workspaceFor(ctx.sessionId)),
          inputs: (a.inputs ?? []).map((i) => ({ ...(i.workspace ? { workspace: i.workspace } : {}), ...(i.artifact_version ? { artifactVersion: i.artifact_version } : {}), ...(i.as ? { as: i.as } : {}) })),
          outputs: a.outputs ?? [],
          resources: { cpus: a.cpus, memoryMb: a.memory_mb, timeLimitMin: a.time_limit_min, gpus: a.gpus, partition: a.partition },
        });
        return { text: text(jobSummary(job)), output: job };
      },
    }),
    defineTool({
      name: 'compute_status',
      description: "A compute job's state now (asks the target), or every job of this session when job_id is left out.",
      input: z.object({ job_id: jobId.optional() }).strict(),
      sideEffect: 'read',
      defaultPolicy: 'allow',
      onDemand: true,
      hostMethods: ['compute.status'],
      resourceKeys: () => [],
      target: (a) => a.job_id ?? 'compute jobs',
      execute: async (a, ctx) => {
        if (a.job_id) {
          ownJob(service(), a.job_id, ctx);
          const job = await service().refresh(a.job_id);
          return { text: text(jobSummary(job)), output: job };
        }
        const jobs = service().list(ctx.sessionId);
        return { text: jobs.length ? text(jobs.map(jobSummary)) : 'No compute job in this session.', output: jobs };
      },
    }),
    defineTool({
      name: 'compute_result',
      description: "A finished job's outcome: exit code, harvested outputs (artifact versions with evidence ids) and logs. wait_s waits for it to finish (max 600).",
      input: z.object({ job_id: jobId, wait_s: z.number().int().min(0).max(600).optional() }).strict(),
      sideEffect: 'read',
      defaultPolicy: 'allow',
      onDemand: true,
      hostMethods: ['compute.result'],
      resourceKeys: () => [],
      target: (a) => a.job_id,
      execute: async (a, ctx) => {
        ownJob(service(), a.job_id, ctx);
        const job = await service().result(a.job_id, a.wait_s ?? 0, ctx.signal);
        const note = job.harvested ? '' : ` (not finished yet: ${job.state}${job.pollError ? `; target unreachable: ${job.pollError}` : ''})`;
        return { text: `${text(jobSummary(job))}${note}`, output: job };
      },
    }),
    defineTool({
      name: 'compute_cancel',
      description: 'Cancel a pending or running compute job of this session.',
      input: z.object({ job_id: jobId, reason: reasonField }).strict(),
      sideEffect: 'exec',
      defaultPolicy: 'allow',
      onDemand: true,
      hostMethods: ['compute.cancel'],
      resourceKeys: (a) => [`compute-job:${a.job_id}`],
      target: (a) => a.job_id,
      execute: async (a, ctx) => {
        ownJob(service(), a.job_id, ctx);
        const job = await service().cancel(a.job_id);
        return { text: text(jobSummary(job)), output: job };
      },
    }),
  ];
}
