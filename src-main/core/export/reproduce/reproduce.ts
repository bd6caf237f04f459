import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { SandboxMode } from '../../../../src-preload/contract/doctor';
import type { KernelLimits } from '../../config/kernelLimits';
import { KernelSupervisor } from '../../kernel/supervisor';
import { errorMessage } from '../../shared/errorMessage';
import { writeWorkspaceFile } from '../../workspace/safeFs';
import { ARTIFACT_INDEX, type ArtifactIndexRow } from '../artifactFiles';
import { HOST_CALLS_FILE, INPUTS_FILE, type RecordedHostCall, type ReproduceInput } from '../reproducePackage';
import { installationPublicKey, type SignatureCheck } from '../signing';
import { compareArtifacts, DEFAULT_PIXEL_TOLERANCE, type ArtifactCheck } from './compareArtifacts';
import { openPackage } from './readPackage';
import { notebookCells, replayCells, type NotebookCell, type ReplayedCell } from './replayCells';
import { ReplayHost } from './replayHost';
import { lineDiff } from './textDiff';

const NOTEBOOK_FILE = 'notebook.ipynb';

/** One session cell run again. */
export interface CellCheck {
  index: number;
  language: 'python' | 'r';
  recordedStatus: string;
  /** `not_run`: the kernel could not run it (see `failure`). */
  status: string;
  /** Whether what it printed is what the session's cell printed, byte for byte. */
  stdout: 'match' | 'differs' | 'not_recorded';
  stdoutDiff?: string[];
  error?: string;
  sandbox?: string;
}

export interface ReproduceReport {
  /** Every artifact matched (or is within the pixel tolerance), no cell failed that had succeeded, no request went unanswered, and the package verified. */
  ok: boolean;
  file: string;
  /** Refused before running anything (a hostile package, or one without recorded answers). */
  refused: string | null;
  verified: boolean;
  /** What verify found wrong (the package still ran when it was only edited). */
  problems: string[];
  signature: SignatureCheck | null;
  inputs: { path: string; staged: boolean; reason?: string }[];
  cells: CellCheck[];
  artifacts: ArtifactCheck[];
  /** Requests of the replayed cells that the session never made. */
  unanswered: { method: string; arguments: Record<string, unknown> }[];
  pixelTolerance: number;
  /** Kept with --keep: the workspace the cells ran in. */
  workspace: string | null;
}

export interface ReproduceOptions {
  /** The data root whose kernel cache the fresh kernels use. */
  dataDir: string;
  processEnv: NodeJS.ProcessEnv;
  sandboxMode: () => SandboxMode;
  kernelLimits?: () => KernelLimits;
  /** Wall-clock limit of one cell. */
  timeoutMs?: number;
  pixelTolerance?: number;
  /** Keep the replay's workspace (its path is in the report) instead of deleting it. */
  keepWorkspace?: boolean;
  onCell?: (cell: NotebookCell, replayed: ReplayedCell) => void;
}

/**
 * The package's records are untrusted input (a package may come from anyone): read
 * against the shapes the export writes, so a malformed one is refused with its file and
 * the problem named instead of failing somewhere inside the replay.
 */
const recordedCallSchema = z.object({
  method: z.string(),
  cellId: z.string().nullable().optional().default(null),
  generation: z.string().nullable().optional().default(null),
  arguments: z.record(z.string(), z.unknown()),
  status: z.string(),
  text: z.string(),
  output: z.unknown().optional(),
});
/** The fields of an `artifacts/index.json` row the comparison reads; the rest of the version record passes through. */
const indexRowSchema = z
  .object({
    file: z.string(),
    id: z.string(),
    path: z.string(),
    number: z.number().int().positive(),
    sha256: z.string(),
    mime: z.string().optional(),
    provenance: z.object({}).passthrough().optional(),
  })
  .passthrough();
const inputSchema = z.object({
  path: z.string(),
  sha256: z.string().nullable(),
  bytes: z.number().nullable(),
  origin: z.string(),
  file: z.string().optional(),
  missing: z.string().optional(),
});

/** The records of `file`, or the sentence saying why they cannot be read. */
function readRecords<T>(files: ReadonlyMap<string, Uint8Array>, file: string, schema: z.ZodType<T>, jsonl: boolean): T[] | string {
  const bytes = files.get(file);
  if (!bytes) return [];
  const text = Buffer.from(bytes).toString('utf8');
  try {
    const rows: unknown = jsonl ? text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as unknown) : JSON.parse(text);
    const parsed = z.array(schema).safeParse(rows);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    return `${file} is not what an export writes (${issue.path.join('.') || 'its top level'}: ${issue.message})`;
  } catch (error) {
    return `${file} is not valid JSON (${errorMessage(error)})`;
  }
}

function refusedReport(file: string, refused: string, base: Partial<ReproduceReport> = {}): ReproduceReport {
  return { ok: false, file, refused, verified: false, problems: [], signature: null, inputs: [], cells: [], artifacts: [], unanswered: [], pixelTolerance: DEFAULT_PIXEL_TOLERANCE, workspace: null, ...base };
}

/** Copies the recorded workspace inputs into the replay's workspace, each checked against its sha256. */
function stageInputs(workspace: string, inputs: readonly ReproduceInput[], files: ReadonlyMap<string, Uint8Array>): ReproduceReport['inputs'] {
  return inputs.map((input) => {
    const bytes = input.file ? files.get(input.file) : undefined;
    if (!bytes) return { path: input.path, staged: false, reason: input.missing ?? `${input.file ?? 'its file'} is not in the package` };
    if (input.sha256 && createHash('sha256').update(bytes).digest('hex') !== input.sha256) return { path: input.path, staged: false, reason: `${input.file} does not match its recorded sha256` };
    try {
      // The safe write refuses a path that leaves the replay's workspace (`../`, absolute, through a symlink).
      writeWorkspaceFile(workspace, input.path, bytes);
    } catch (error) {
      return { path: input.path, staged: false, reason: errorMessage(error) };
    }
    return { path: input.path, staged: true };
  });
}

function cellCheck(entry: ReplayedCell): CellCheck {
  const { cell, result } = entry;
  const head = { index: cell.index, language: cell.language, recordedStatus: cell.recordedStatus };
  if (!result) return { ...head, status: 'not_run', stdout: 'not_recorded', error: entry.failure ?? 'the kernel could not run it' };
  const stdout = cell.recordedStdout === null ? 'not_recorded' : cell.recordedStdout === result.stdout ? 'match' : 'differs';
  return {
    ...head,
    status: result.status,
    stdout,
    ...(stdout === 'differs' ? { stdoutDiff: lineDiff(cell.recordedStdout ?? '', result.stdout, 20) } : {}),
    ...(result.error ? { error: `${result.error.ename}: ${result.error.evalue}` } : result.died ? { error: result.died.reason } : {}),
    sandbox: result.sandbox.state,
  };
}

/**
 * `openai4s reproduce`: verifies an export, runs its cells again in fresh sandboxed kernels
 * (the production supervisor) whose host calls are answered from the package's recorded
 * answers, and reports per artifact whether the recomputed bytes match, differ (with a
 * diff or a pixel difference) or could not be recomputed (with the reason).
 */
export async function reproducePackage(file: string, options: ReproduceOptions): Promise<ReproduceReport> {
  const opened = openPackage(file, installationPublicKey(options.dataDir));
  const verification = { verified: opened.verify.ok, problems: opened.verify.problems, signature: opened.verify.signature };
  if (!opened.files) return refusedReport(file, opened.refused, verification);
  const { files } = opened;
  if (!files.has(HOST_CALLS_FILE)) {
    return refusedReport(file, `${file} has no recorded host answers (${HOST_CALLS_FILE}): it was exported before reproducible exports; export the session again`, verification);
  }
  if (!files.has(NOTEBOOK_FILE)) return refusedReport(file, `${file} has no ${NOTEBOOK_FILE}, the cells reproduce runs; export the session again`, verification);
  const calls: RecordedHostCall[] | string = readRecords(files, HOST_CALLS_FILE, recordedCallSchema, true);
  if (typeof calls === 'string') return refusedReport(file, calls, verification);
  const recordedInputs: ReproduceInput[] | string = readRecords(files, INPUTS_FILE, inputSchema, false);
  if (typeof recordedInputs === 'string') return refusedReport(file, recordedInputs, verification);
  // Every row checked, not the well-formed ones kept: a malformed index would compare nothing and report success.
  const rows = readRecords(files, ARTIFACT_INDEX, indexRowSchema, false) as ArtifactIndexRow[] | string;
  if (typeof rows === 'string') return refusedReport(file, rows, verification);
  let notebook: unknown;
  try {
    notebook = JSON.parse(Buffer.from(files.get(NOTEBOOK_FILE)!).toString('utf8'));
  } catch (error) {
    return refusedReport(file, `${NOTEBOOK_FILE} is not valid JSON (${errorMessage(error)})`, verification);
  }
  const cells = notebookCells(notebook);
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'openai4s-reproduce-'));
  const host = new ReplayHost(calls);
  const supervisor = new KernelSupervisor({
    dataDir: options.dataDir,
    processEnv: options.processEnv,
    sandboxMode: options.sandboxMode,
    host,
    workspaceFor: () => workspace,
    prewarm: [],
    ...(options.kernelLimits ? { kernelLimits: options.kernelLimits } : {}),
  });
  try {
    const inputs = stageInputs(workspace, recordedInputs, files);
    const replayed = await replayCells(supervisor, cells, { timeoutMs: options.timeoutMs ?? 10 * 60_000, ...(options.onCell ? { onCell: options.onCell } : {}) });
    const tolerance = options.pixelTolerance ?? DEFAULT_PIXEL_TOLERANCE;
    const artifacts = compareArtifacts(rows, files, calls, host.saves, replayed, tolerance);
    const cellChecks = replayed.map(cellCheck);
    const regressed = cellChecks.some((c) => c.recordedStatus === 'ok' && c.status !== 'ok');
    const ok = verification.verified && !regressed && !host.unanswered.length && artifacts.every((a) => a.outcome === 'match' || a.outcome === 'within_tolerance');
    return { ok, file, refused: null, ...verification, inputs, cells: cellChecks, artifacts, unanswered: host.unanswered, pixelTolerance: tolerance, workspace: options.keepWorkspace ? workspace : null };
  } finally {
    await supervisor.close();
    if (!options.keepWorkspace) fs.rmSync(workspace, { recursive: true, force: true });
  }
}
