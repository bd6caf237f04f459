import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ComputeInput, ComputeLanguage, ComputeResources, ComputeTargetConfig } from '../../../src-preload/contract/compute';
import { AppError } from '../../../src-preload/contract/errors';
import type { ArtifactService } from '../provenance/artifactService';
import { normalizeLogicalPath } from '../provenance/artifactService';
import { readWorkspaceFile, WorkspaceNotFoundError } from '../workspace/safeFs';
import { META_DIR, SCHEDULER_ID_FILE, WRAPPER } from './scheduler';
import { shQuote } from './transport';

/**
 * A job folder, built locally before anything reaches the target: the script, the inputs
 * at their declared paths (copied from the workspace through safeFs, or from an artifact
 * version's stored bytes), and the wrapper that runs the script and records how it ended.
 */

const SCRIPT_FILE: Record<ComputeLanguage, string> = { python: 'job.py', r: 'job.R', shell: 'job.sh' };
const MAX_INPUT_BYTES = 1024 * 1024 * 1024;

export interface InputRequest {
  /** A workspace file, or an artifact version id (av_...). */
  workspace?: string;
  artifactVersion?: string;
  /** Where it lands in the job folder; default: the workspace path, or the artifact's path. */
  as?: string;
}

/** A relative path in the job folder that is not the wrapper's bookkeeping and not the script. */
export function jobPath(p: string, what: string, language: ComputeLanguage): string {
  const clean = normalizeLogicalPath(p);
  // Compared without case: the staging folder may be on a case-insensitive disk (macOS,
  // Windows), where ".OPENAI4S/exit_code" is the wrapper's own exit record.
  const folded = clean.toLowerCase();
  if (folded === META_DIR || folded.startsWith(`${META_DIR}/`)) throw new AppError('invalid_input', `${what} "${p}" is inside ${META_DIR}/, which the job folder keeps for its own records; pick another path.`);
  if (folded === SCRIPT_FILE[language]) throw new AppError('invalid_input', `${what} "${p}" is the job script's own name (${SCRIPT_FILE[language]}); pick another path.`);
  return clean;
}

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export interface StageRequest {
  dir: string;
  sessionId: string;
  workspace: string;
  language: ComputeLanguage;
  script: string;
  inputs: InputRequest[];
  target: ComputeTargetConfig;
  resources: ComputeResources;
  artifacts: () => ArtifactService;
}

/** Writes the folder; answers the staged inputs with their hashes (the job's input versions). */
export function stageJobFolder(req: StageRequest): { scriptFile: string; inputs: ComputeInput[] } {
  fs.mkdirSync(path.join(req.dir, META_DIR), { recursive: true });
  const scriptFile = SCRIPT_FILE[req.language];
  fs.writeFileSync(path.join(req.dir, scriptFile), req.script);
  const inputs: ComputeInput[] = [];
  const seen = new Set<string>();
  for (const input of req.inputs) {
    const staged = input.artifactVersion ? stageArtifact(req, input) : stageWorkspaceFile(req, input);
    if (seen.has(staged.path)) throw new AppError('invalid_input', `Two inputs land at "${staged.path}" in the job folder; give one of them another "as" path.`);
    seen.add(staged.path);
    inputs.push(staged);
  }
  fs.writeFileSync(path.join(req.dir, WRAPPER), wrapperScript(req.target, req.language, scriptFile, req.resources), { mode: 0o755 });
  return { scriptFile, inputs };
}

function place(req: StageRequest, rel: string, write: (dest: string) => void): void {
  const dest = path.join(req.dir, rel);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  write(dest);
}

function stageWorkspaceFile(req: StageRequest, input: InputRequest): ComputeInput {
  if (!input.workspace) throw new AppError('invalid_input', 'An input names a workspace file ("workspace") or an artifact version ("artifact_version").');
  let bytes: Buffer;
  let rel: string;
  try {
    ({ bytes, rel } = readWorkspaceFile(req.workspace, input.workspace, {
      maxBytes: MAX_INPUT_BYTES,
      tooBig: (size, r) => new AppError('invalid_input', `Input "${r}" is ${size} bytes, over the ${MAX_INPUT_BYTES}-byte staging limit; put it on the target's file system and read it from there.`),
    }));
  } catch (error) {
    if (error instanceof WorkspaceNotFoundError) throw new AppError('not_found', `No file "${input.workspace}" in the session workspace to stage as a job input; write it first or save it as an artifact.`);
    throw error;
  }
  const at = jobPath(input.as ?? rel, 'Input', req.language);
  place(req, at, (dest) => fs.writeFileSync(dest, bytes));
  return { path: at, source: 'workspace', from: rel, sha256: sha256(bytes), size: bytes.length };
}

function stageArtifact(req: StageRequest, input: InputRequest): ComputeInput {
  const versionId = input.artifactVersion!;
  const artifacts = req.artifacts();
  const v = artifacts.version(versionId);
  if (v.sessionId !== req.sessionId) throw new AppError('not_found', `Artifact version ${versionId} is not in this session; list this session's artifacts with list_artifacts.`);
  const at = jobPath(input.as ?? v.path, 'Input', req.language);
  place(req, at, (dest) => fs.copyFileSync(artifacts.blobPath(versionId), dest));
  return { path: at, source: 'artifact', from: versionId, sha256: v.sha256, size: v.size, versionId, evidenceId: v.evidenceId };
}

function interpreter(target: ComputeTargetConfig, language: ComputeLanguage): string {
  return language === 'python' ? (target.python ?? 'python3') : language === 'r' ? (target.rscript ?? 'Rscript') : 'bash';
}

/**
 * The wrapper: runs the script in the job folder (the scheduler starts it there) and
 * records the node, start and end times and the exit code. On a plain SSH host it also
 * enforces the time limit: a watchdog marks the job timed out and stops its process group.
 */
export function wrapperScript(target: ComputeTargetConfig, language: ComputeLanguage, scriptFile: string, resources: ComputeResources): string {
  const run = `${shQuote(interpreter(target, language))} ${scriptFile}`;
  const cpus = resources.cpus ? `export OMP_NUM_THREADS=${resources.cpus} OPENBLAS_NUM_THREADS=${resources.cpus} MKL_NUM_THREADS=${resources.cpus}\n` : '';
  const watchdog =
    target.kind === 'ssh' && resources.timeLimitMin
      ? // Stopped quietly when the script ends first (the trap ends its sleep); ignores the TERM it sends its own group.
        `( sleep ${resources.timeLimitMin * 60} & s=$!; trap 'kill $s; exit 0' TERM; wait $s; trap '' TERM; touch $M/timed_out; date -u +%Y-%m-%dT%H:%M:%SZ > $M/ended_at; kill -TERM -- -$$; sleep 30; kill -KILL -- -$$ ) &\nwatchdog=$!\n`
      : '';
  return [
    '#!/bin/bash',
    '# OpenAI4S compute job: runs the script in this folder and records how it ended.',
    `M=${META_DIR}`,
    'export PATH="${PATH:-/usr/local/bin:/usr/bin:/bin}"',
    // On a plain host the wrapper records its own pid (its process group) too: a launch cut
    // before it wrote the pid still leaves the job one to be followed and cancelled by.
    ...(target.kind === 'ssh' ? ['[ -s $M/pid ] || echo $$ > $M/pid'] : []),
    'hostname > $M/node 2>/dev/null',
    'date -u +%Y-%m-%dT%H:%M:%SZ > $M/started_at',
    // Slurm's id, kept where an interrupted submission can find it after the controller forgets the job.
    ...(target.kind === 'slurm' ? [`[ -n "$SLURM_JOB_ID" ] && echo "$SLURM_JOB_ID" > ${SCHEDULER_ID_FILE}`] : []),
    `${cpus}${watchdog}${run}`,
    'code=$?',
    ...(watchdog ? ['kill "$watchdog" 2>/dev/null'] : []),
    'date -u +%Y-%m-%dT%H:%M:%SZ > $M/ended_at',
    'echo "$code" > $M/exit_code',
    'exit "$code"',
    '',
  ].join('\n');
}

/** The script's first lines, for the approval summary and the job view. */
export function scriptHead(script: string, lines = 8): string {
  const all = script.split('\n');
  const head = all.slice(0, lines).map((l) => (l.length > 160 ? `${l.slice(0, 160)}…` : l));
  return all.length > lines ? `${head.join('\n')}\n… (${all.length - lines} more lines)` : head.join('\n');
}
