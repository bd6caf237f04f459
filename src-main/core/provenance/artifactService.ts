import { AppError } from '../../../src-preload/contract/errors';
import type {
  ArtifactBytes,
  ArtifactEnvironment,
  ArtifactProducer,
  ArtifactSummary,
  ArtifactVersion,
  CellOutcomeSummary,
} from '../../../src-preload/contract/artifacts';
import { randomId, stableId } from '../records/ids';
import { evidenceIdFor, type EvidenceStore } from '../records/evidenceStore';
import type { BlobFileSource, BlobStore } from './blobStore';
import type { GenerationEnvironments } from './environment';
import type { ArtifactIndex } from '../records/artifactIndex';
import { guessMime } from '../workspace/mime';

export interface SaveArtifactInput {
  sessionId: string;
  /** The logical path (workspace-relative, forward slashes); saving it again makes a new version. */
  path: string;
  /** The bytes, or a file stored without a copy where the disk allows (BlobStore.putFile). */
  bytes?: Buffer;
  file?: BlobFileSource;
  mime?: string;
  producer: ArtifactProducer;
  /** Evidence the producer read; each must exist in the session. */
  inputEvidence?: string[];
  /**
   * An earlier version of this path with the same bytes for which this holds is answered
   * instead of a new one: a producer saving again what it already saved (a retried
   * harvest) makes no second version. Different bytes are a new version, as always.
   */
  reuse?: (earlier: ArtifactVersion) => boolean;
}

/** A logical path: relative, no "..", no empty or dot segments, bounded. */
export function normalizeLogicalPath(p: string): string {
  const clean = p.replace(/\\/g, '/').replace(/^\.\/+/, '');
  const parts = clean.split('/');
  if (!clean || clean.length > 512 || clean.startsWith('/') || parts.some((s) => !s || s === '.' || s === '..') || [...clean].some((ch) => ch.charCodeAt(0) < 0x20)) {
    throw new AppError('invalid_input', `"${p}" is not a workspace-relative artifact path (no leading "/", no ".." segments, at most 512 characters).`);
  }
  return clean;
}

const WHY_NO_KERNEL: Record<Exclude<ArtifactProducer['kind'], 'cell'>, string> = {
  tool: 'written by a native tool call, not by a kernel cell: no kernel environment produced these bytes',
  user: 'saved by the user, not by a kernel cell: no kernel environment produced these bytes',
  job: 'written by a compute job on a remote target, not by a kernel cell: the job provenance names its target, script and inputs',
};

/**
 * Versioned artifacts: bytes content-addressed in the BlobStore, versions with
 * provenance in the index, one evidence record per version. Identical bytes share
 * storage, never history: every save is a new version with its own provenance.
 */
export class ArtifactService {
  constructor(
    private readonly deps: {
      blobs: BlobStore;
      index: ArtifactIndex;
      evidence: EvidenceStore;
      environments: GenerationEnvironments;
      now?: () => Date;
    },
  ) {}

  async save(input: SaveArtifactInput): Promise<ArtifactVersion> {
    const logical = normalizeLogicalPath(input.path);
    const inputs = [...new Set(input.inputEvidence ?? [])];
    const unknown = this.deps.evidence.missing(input.sessionId, inputs);
    if (unknown.length) {
      throw new AppError('invalid_input', `input evidence ${unknown.join(', ')} does not exist in session ${input.sessionId}; cite ids from this session's tool or cell results.`);
    }
    const environment: ArtifactEnvironment =
      input.producer.kind === 'cell'
        ? await this.deps.environments.describe({ generation: input.producer.generation, language: input.producer.language })
        : { status: 'missing', language: null, reason: WHY_NO_KERNEL[input.producer.kind] };
    if (!input.bytes === !input.file) throw new Error('An artifact is saved from bytes or from a file, one of the two.');
    const { sha256, size } = input.file ? this.deps.blobs.putFile(input.file) : this.deps.blobs.put(input.bytes!);
    const artifactId = stableId('art_', input.sessionId, logical);
    const reuse = input.reuse;
    const earlier = reuse && this.deps.index.artifact(artifactId) ? this.deps.index.versions(artifactId).find((v) => v.sha256 === sha256 && reuse(v)) : undefined;
    if (earlier) return this.withOutcome(earlier);
    const createdAt = (this.deps.now?.() ?? new Date()).toISOString();
    const mime = input.mime ?? guessMime(logical);
    return this.deps.index.addVersion({ id: artifactId, sessionId: input.sessionId, path: logical, createdAt }, (aid, number) => {
      const id = randomId('av_');
      const provenance = { producer: input.producer, environment, inputEvidence: inputs, created_at: createdAt };
      const by =
        input.producer.kind === 'cell'
          ? `cell ${input.producer.cellId} of ${input.producer.language} generation ${input.producer.generation.slice(0, 8)}` +
            (environment.status === 'recorded' ? ` (${environment.interpreterVersion})` : ` (environment unknown: ${environment.reason})`)
          : input.producer.kind === 'tool'
            ? `tool ${input.producer.tool}`
            : input.producer.kind === 'job'
              ? `compute job ${input.producer.jobId} on ${input.producer.target} (${input.producer.state}, exit ${input.producer.exitCode ?? 'unknown'})`
              : 'the user';
      const ev = this.deps.evidence.record({
        sessionId: input.sessionId,
        kind: 'artifact_version',
        key: id,
        title: `${logical} v${number}`,
        snippet: `${mime}, ${size} bytes, sha256 ${sha256}; made by ${by}`,
        envelope: { version_id: id, artifact_id: aid, path: logical, number, sha256, size, mime, provenance },
        createdAt,
      });
      return this.withOutcome({ id, artifactId: aid, sessionId: input.sessionId, number, path: logical, sha256, size, mime, createdAt, provenance, evidenceId: ev.id });
    });
  }

  /**
   * How the producing cell ended, read from that cell's evidence record: a version saved
   * mid-cell (host.save_artifact) learns its cell's outcome once the cell has ended.
   */
  cellOutcome(sessionId: string, producer: ArtifactProducer): CellOutcomeSummary | null {
    if (producer.kind !== 'cell') return null;
    const record = this.deps.evidence.get(sessionId, evidenceIdFor(sessionId, 'cell', `${producer.generation}/${producer.cellId}`));
    const envelope = (record?.envelope ?? {}) as { status?: unknown; error?: unknown };
    const status = envelope.status;
    if (status !== 'ok' && status !== 'error' && status !== 'interrupted' && status !== 'died') return null;
    if (status === 'ok') return { status };
    return typeof envelope.error === 'string' && envelope.error ? { status, error: envelope.error } : { status };
  }

  /** The versions a cell produced (figures it left and files it saved), oldest first. */
  producedByCell(sessionId: string, cellId: string): ArtifactVersion[] {
    return this.list(sessionId)
      .flatMap((a) => this.versions(a.id))
      .filter((v) => v.provenance.producer.kind === 'cell' && v.provenance.producer.cellId === cellId);
  }

  private withOutcome(v: ArtifactVersion): ArtifactVersion {
    const outcome = this.cellOutcome(v.sessionId, v.provenance.producer);
    return outcome ? { ...v, cellOutcome: outcome } : v;
  }

  list(sessionId: string): ArtifactSummary[] {
    return this.deps.index.artifacts(sessionId).map((a) => this.summary(a.id)!);
  }

  get(artifactId: string): ArtifactSummary {
    const s = this.summary(artifactId);
    if (!s) throw new AppError('not_found', `No artifact ${artifactId}; list the session's artifacts with artifact.list.`);
    return s;
  }

  versions(artifactId: string): ArtifactVersion[] {
    this.get(artifactId);
    return this.deps.index.versions(artifactId).map((v) => this.withOutcome(v));
  }

  version(versionId: string): ArtifactVersion {
    const v = this.deps.index.version(versionId);
    if (!v) throw new AppError('not_found', `No artifact version ${versionId}.`);
    return this.withOutcome(v);
  }

  read(versionId: string, maxBytes = 4 * 1024 * 1024): ArtifactBytes {
    const v = this.version(versionId);
    const bytes = this.deps.blobs.read(v.sha256, v.size <= maxBytes ? Infinity : maxBytes);
    return { versionId, mime: v.mime, size: v.size, base64: bytes.toString('base64'), truncated: v.size > maxBytes };
  }

  /** Host path of a version's stored bytes (for reveal in the OS file manager). */
  blobPath(versionId: string): string {
    return this.deps.blobs.pathOf(this.version(versionId).sha256);
  }

  private summary(artifactId: string): ArtifactSummary | null {
    const a = this.deps.index.artifact(artifactId);
    if (!a) return null;
    const versions = this.deps.index.versions(artifactId);
    return { id: a.id, sessionId: a.sessionId, path: a.path, versions: versions.length, latest: this.withOutcome(versions[versions.length - 1]!) };
  }
}
