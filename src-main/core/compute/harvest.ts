import fs from 'node:fs';
import path from 'node:path';
import type { ArtifactVersion, JobProducer } from '../../../src-preload/contract/artifacts';
import type { ComputeHarvestedOutput, ComputeJobView } from '../../../src-preload/contract/compute';
import type { ArtifactService } from '../provenance/artifactService';
import type { BlobFileSource } from '../provenance/blobStore';
import type { HarvestedData } from './jobState';
import { STDERR_LOG, STDOUT_LOG, type SchedulerStatus } from './scheduler';
import type { Transport } from './transport';
import { readFromStart, withWorkspaceFile, withWorkspaceFileAsync, WorkspaceEscapeError, WorkspaceKindError, WorkspaceNotFoundError } from '../workspace/safeFs';

/**
 * Brings a finished job's declared outputs and its stdout/stderr back and saves each as an
 * artifact version whose provenance is the job (target, scheduler id, node, partition,
 * elapsed time, exit code, script hash, input versions). A declared output that was not
 * written fails the job, naming it; nothing absent is ever reported as produced.
 *
 * A remote job's file lands in the data root once: the downloaded copy itself is moved out
 * of the harvest folder (ours) into the artifact store. A job folder on this machine stays
 * the job's, so its files are copied (streamed, never held whole in memory), not hard-linked:
 * a blob sharing an inode with a file someone may edit in place would lose the artifact's
 * bytes. A harvest done again (after a crash or a failed poll) answers the versions
 * it already made for the same bytes instead of recording them twice.
 */

/** Logs over this size are kept as their last bytes (a runaway print loop must not fill the store). */
const MAX_LOG_BYTES = 64 * 1024 * 1024;
/** A declared output over this size is left on the target, named, rather than read into the app's memory. */
export const MAX_OUTPUT_BYTES = 1024 * 1024 * 1024;

export interface HarvestRequest {
  job: ComputeJobView;
  final: SchedulerStatus;
  transport: Transport;
  /** The job folder on the target. */
  remoteDir: string;
  /** Where remote files are copied to (ignored when the target is this machine). */
  harvestDir: string;
  artifacts: ArtifactService;
  /** Defaults to MAX_OUTPUT_BYTES (tests set less). */
  maxOutputBytes?: number;
  /** Defaults to MAX_LOG_BYTES (tests set less). */
  maxLogBytes?: number;
}

/** A declared output larger than the harvest takes. */
class OutputTooLarge extends Error {
  constructor(readonly size: number) {
    super(`output of ${size} bytes`);
  }
}

/**
 * Which of `files` the target says are regular files of the job folder (a symlink is not
 * sent), with their sizes there. On this machine every file is simply tried (size unknown
 * here): the safe read below decides, and checks the size itself.
 */
async function existing(transport: Transport, dir: string, files: string[]): Promise<Map<string, number | null>> {
  if (!transport.remote) return new Map(files.map((f) => [f, null]));
  const r = await transport.exec(['bash', '-c', 'cd -- "$1" || exit 96; shift; for f in "$@"; do [ -f "$f" ] && [ ! -L "$f" ] && printf "%s %s\\n" "$(wc -c < "$f" | tr -d " ")" "$f"; done; exit 0', 'o4s-list', dir, ...files]);
  if (r.code !== 0) throw new Error(`could not list the job folder ${dir} on ${transport.where}: ${r.stderr.trim() || `exit ${r.code}`}`);
  const found = new Map<string, number | null>();
  for (const line of r.stdout.split('\n')) {
    const m = /^(\d+) (.+)$/.exec(line);
    if (m) found.set(m[2]!, Number(m[1]));
  }
  return new Map(files.filter((f) => found.has(f)).map((f) => [f, found.get(f)!]));
}

/**
 * A file of a job folder (or of its harvested copy), read through safeFs: the job wrote
 * that folder, so a symlink in it (or a folder on the path swapped for one) could name any
 * file of this machine; it is refused, never followed. `tail` keeps only the last bytes.
 * Answers null when the file is absent, a symlink or not a regular file.
 */
export function readJobFile(dir: string, rel: string, tail?: number, max?: number): Buffer | null {
  try {
    return withWorkspaceFile(dir, rel, 'read', ({ fd, stat }) => {
      if (max !== undefined && stat.size > max) throw new OutputTooLarge(stat.size);
      if (tail === undefined || stat.size <= tail) return readFromStart(fd, stat.size);
      const buf = Buffer.alloc(tail);
      let got = 0;
      while (got < tail) {
        const n = fs.readSync(fd, buf, got, tail - got, stat.size - tail + got);
        if (n === 0) break;
        got += n;
      }
      return buf.subarray(0, got);
    });
  } catch (error) {
    if (error instanceof WorkspaceNotFoundError || error instanceof WorkspaceEscapeError || error instanceof WorkspaceKindError) return null;
    throw error;
  }
}

const refused = (error: unknown) => error instanceof WorkspaceNotFoundError || error instanceof WorkspaceEscapeError || error instanceof WorkspaceKindError;

/** A job file's size through the safe open (null when absent, a symlink or not a regular file); over `max` is OutputTooLarge. */
function jobFileSize(dir: string, rel: string, max: number): number | null {
  try {
    return withWorkspaceFile(dir, rel, 'read', ({ stat }) => {
      if (stat.size > max) throw new OutputTooLarge(stat.size);
      return stat.size;
    });
  } catch (error) {
    if (refused(error)) return null;
    throw error;
  }
}

/**
 * Hands a job file, opened through safeFs, to `store` as a file the artifact store copies
 * or moves (the store checks that what it takes is the inode opened here). Null when the
 * file is absent or refused; OutputTooLarge over `max`.
 */
async function withJobFile<T>(dir: string, rel: string, how: BlobFileSource['how'], max: number, store: (file: BlobFileSource) => Promise<T>): Promise<T | null> {
  try {
    return await withWorkspaceFileAsync(dir, rel, 'read', ({ fd, stat, rel: clean }) => {
      if (stat.size > max) throw new OutputTooLarge(stat.size);
      return store({ path: path.join(dir, clean), how, opened: { fd, stat } });
    });
  } catch (error) {
    if (refused(error)) return null;
    throw error;
  }
}

function readLog(dir: string, rel: string, max: number): Buffer | null {
  const bytes = readJobFile(dir, rel, max + 1);
  if (!bytes || bytes.length <= max) return bytes;
  return Buffer.concat([Buffer.from(`[earlier bytes dropped; the last ${max} kept]\n`), bytes.subarray(1)]);
}

/**
 * A log larger than the harvest keeps is cut to its last bytes on the target, into a file
 * beside it, and only that file is downloaded: a job that printed 50 GB must not copy 50 GB
 * to this machine to keep 64 MB. Answers the file to download and read for each log.
 */
async function tailLargeLogs(transport: Transport, dir: string, sizes: Map<string, number | null>, max: number): Promise<Map<string, string>> {
  const source = new Map<string, string>();
  for (const log of [STDOUT_LOG, STDERR_LOG]) {
    if (!sizes.has(log)) continue;
    if (!transport.remote || (sizes.get(log) ?? 0) <= max) {
      source.set(log, log);
      continue;
    }
    const cut = `${log}.tail`;
    const r = await transport.exec(['bash', '-c', 'cd -- "$1" && tail -c "$2" -- "$3" > "$4"', 'o4s-tail', dir, String(max + 1), log, cut]);
    if (r.code !== 0) throw new Error(`could not cut ${log} to its last ${max} bytes on ${transport.where}: ${r.stderr.trim() || `exit ${r.code}`}`);
    source.set(log, cut);
  }
  return source;
}

export async function harvestJob(req: HarvestRequest): Promise<HarvestedData> {
  const { job, final, transport } = req;
  const maxBytes = req.maxOutputBytes ?? MAX_OUTPUT_BYTES;
  const maxLog = req.maxLogBytes ?? MAX_LOG_BYTES;
  const wanted = [...job.outputs, STDOUT_LOG, STDERR_LOG];
  const sizes = await existing(transport, req.remoteDir, wanted);
  // Too large, by the target's word: not copied at all (logs are tailed after the copy instead).
  const tooLarge = new Map<string, number>(job.outputs.flatMap((o) => (sizes.get(o) ?? 0) > maxBytes ? [[o, sizes.get(o)!] as [string, number]] : []));
  const present = job.outputs.filter((o) => sizes.has(o) && !tooLarge.has(o));
  const logFiles = await tailLargeLogs(transport, req.remoteDir, sizes, maxLog);
  let localDir = req.remoteDir;
  if (transport.remote) {
    fs.mkdirSync(req.harvestDir, { recursive: true });
    await transport.download(req.remoteDir, [...present, ...logFiles.values()], req.harvestDir);
    localDir = req.harvestDir;
  }
  const producer: JobProducer = {
    kind: 'job',
    jobId: job.id,
    target: job.target,
    targetKind: job.targetKind,
    schedulerJobId: job.schedulerJobId,
    node: final.node ?? job.node,
    partition: final.partition ?? job.partition,
    elapsedSeconds: final.elapsedSeconds,
    exitCode: final.exitCode,
    state: final.state,
    scriptSha256: job.scriptSha256,
    inputs: job.inputs.map((i) => ({ path: i.path, sha256: i.sha256, ...(i.versionId ? { versionId: i.versionId } : {}) })),
  };
  const inputEvidence = job.inputs.flatMap((i) => (i.evidenceId ? [i.evidenceId] : []));
  // A harvest done again (retried after a crash or a failed poll) finds what it saved before: same job, same path, same bytes.
  const reuse = (earlier: ArtifactVersion) => earlier.provenance.producer.kind === 'job' && earlier.provenance.producer.jobId === job.id;
  const save = async (logical: string, content: { bytes: Buffer } | { file: BlobFileSource }, mime?: string): Promise<ComputeHarvestedOutput> => {
    const v = await req.artifacts.save({ sessionId: job.sessionId, path: logical, ...content, producer, inputEvidence, reuse, ...(mime ? { mime } : {}) });
    return { path: logical, versionId: v.id, evidenceId: v.evidenceId, sha256: v.sha256, size: v.size };
  };
  // The harvest folder is ours: its files move into the store. A folder on this machine is the job's: its
  // files are copied (never linked: an output edited in place later would change the artifact's bytes).
  const how: BlobFileSource['how'] = transport.remote ? 'move' : 'copy';
  // Checked before deciding the state: a file the safe open refuses (a symlink) counts as not written:
  // the job did not write that output as a file, and the host never reads what a link points at.
  const written = new Set<string>();
  for (const o of job.outputs) {
    try {
      if (present.includes(o) && jobFileSize(localDir, o, maxBytes) !== null) written.add(o);
    } catch (error) {
      // The copy is larger than the target said (or this machine's file is): left out the same way.
      if (!(error instanceof OutputTooLarge)) throw error;
      tooLarge.set(o, error.size);
    }
  }
  const missing = job.outputs.filter((o) => !written.has(o));
  const unwritten = missing.filter((o) => !tooLarge.has(o));
  // The producer names the job's final state, so decide it before saving anything.
  let state = final.state;
  const problems: string[] = final.reason ? [final.reason] : [];
  if (unwritten.length) {
    problems.push(`declared output${unwritten.length > 1 ? 's' : ''} ${unwritten.map((m) => `"${m}"`).join(', ')} ${unwritten.length > 1 ? 'were' : 'was'} not written`);
  }
  for (const [o, size] of tooLarge) {
    problems.push(`declared output "${o}" is ${size.toLocaleString('en-US')} bytes, over the ${maxBytes.toLocaleString('en-US')} the app harvests; it was left on ${transport.where} in ${req.remoteDir} (fetch it yourself, or have the job write less)`);
  }
  const reason = problems.length ? problems.join('; ') : null;
  if (missing.length) {
    if (state === 'completed') state = 'failed';
    producer.state = state;
  }
  const outputs: ComputeHarvestedOutput[] = [];
  for (const o of written) {
    const saved = await withJobFile(localDir, o, how, maxBytes, (file) => save(o, { file }));
    // Checked a moment ago: a file gone or replaced since is a harvest to do again, not an output to drop.
    if (!saved) throw new Error(`output "${o}" changed in ${localDir} during the harvest`);
    outputs.push(saved);
  }
  const log = async (rel: string, name: string) => {
    const file = logFiles.get(rel);
    if (!file) return null;
    const logical = `compute/${job.id}/${name}`;
    try {
      return await withJobFile(localDir, file, how, maxLog, (source) => save(logical, { file: source }, 'text/plain'));
    } catch (error) {
      if (!(error instanceof OutputTooLarge)) throw error;
    }
    // Over the limit: its last bytes, with a note saying so (new bytes, so saved as such).
    const bytes = readLog(localDir, file, maxLog);
    return bytes ? save(logical, { bytes }, 'text/plain') : null;
  };
  const logs = { stdout: await log(STDOUT_LOG, 'stdout.log'), stderr: await log(STDERR_LOG, 'stderr.log') };
  return { state, reason, exitCode: final.exitCode, outputs, missing, logs };
}
