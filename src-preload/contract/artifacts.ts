import { z } from 'zod';
import { route } from './define';

/** One package of the kernel environment that produced a version, with its version string. */
export interface PackageVersion {
  name: string;
  /** null when the package is declared but not importable in that interpreter. */
  version: string | null;
}

/**
 * The environment of the kernel generation that wrote a version. Either read from that
 * generation's interpreter, or `missing` with the reason: never another process's list.
 */
export type ArtifactEnvironment =
  | {
      status: 'recorded';
      language: 'python' | 'r';
      /** The environment the generation ran in (env.list's id, e.g. "python-science", "venv:rdkit"); absent in records made before issue 18. */
      environment?: string;
      interpreter: string;
      interpreterVersion: string;
      packages: PackageVersion[];
    }
  | { status: 'missing'; language: 'python' | 'r' | null; reason: string };

/** Who made the bytes: a cell of a kernel generation, a native tool call, the user, or a compute job. */
export type ArtifactProducer =
  | { kind: 'cell'; cellId: string; generation: string; language: 'python' | 'r' }
  | { kind: 'tool'; tool: string; runId: string | null }
  | { kind: 'user' }
  | JobProducer;

/**
 * A compute job on a Slurm cluster or an SSH host (issue 23): where and how it ran, how it
 * ended, the script's hash and the input versions staged into its folder.
 */
export interface JobProducer {
  kind: 'job';
  jobId: string;
  target: string;
  targetKind: 'slurm' | 'ssh';
  schedulerJobId: string | null;
  node: string | null;
  partition: string | null;
  elapsedSeconds: number | null;
  exitCode: number | null;
  /** The job's final state (completed, failed, timeout, ...). */
  state: string;
  scriptSha256: string;
  inputs: { path: string; sha256: string; versionId?: string }[];
}

export interface ArtifactProvenance {
  producer: ArtifactProducer;
  environment: ArtifactEnvironment;
  /** Evidence ids the producer read (retrievals, earlier versions). */
  inputEvidence: string[];
  created_at: string;
}

/** How the cell that produced a version ended: a failed computation must never look like a result. */
export interface CellOutcomeSummary {
  status: 'ok' | 'error' | 'interrupted' | 'died';
  /** The error's one-line summary (`ename: evalue`) when the cell did not end ok. */
  error?: string;
}

export interface ArtifactVersion {
  id: string;
  artifactId: string;
  sessionId: string;
  /** 1-based, per artifact. */
  number: number;
  path: string;
  sha256: string;
  size: number;
  mime: string;
  createdAt: string;
  provenance: ArtifactProvenance;
  /** The evidence record of this version (cite it in computed claims). */
  evidenceId: string;
  /**
   * For a version a cell produced: how that cell ended, read from the cell's evidence when
   * the version is read (absent while the cell still runs, or for tools and the user).
   */
  cellOutcome?: CellOutcomeSummary;
}

export interface ArtifactSummary {
  id: string;
  sessionId: string;
  /** The logical path (workspace-relative), the same for all versions. */
  path: string;
  versions: number;
  latest: ArtifactVersion;
}

export interface ArtifactBytes {
  versionId: string;
  mime: string;
  size: number;
  /** Base64 of the first `maxBytes` bytes. */
  base64: string;
  truncated: boolean;
}

const sessionId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, 'a session id is 1-128 letters, digits, "_" or "-"');
const artifactId = z.string().regex(/^art_[a-z2-7]{16}$/, 'an artifact id is "art_" followed by 16 base32 letters');
const versionId = z.string().regex(/^av_[a-z2-7]{16}$/, 'a version id is "av_" followed by 16 base32 letters');

export const artifactRoutes = {
  'artifact.list': route<ArtifactSummary[]>()(z.object({ sessionId }).strict()),
  'artifact.versions': route<ArtifactVersion[]>()(z.object({ artifactId }).strict()),
  /** Bytes for previews, capped (default 4 MiB). */
  'artifact.read': route<ArtifactBytes>()(
    z.object({ versionId, maxBytes: z.number().int().min(1).max(64 * 1024 * 1024).optional() }).strict(),
  ),
  /** Shows the stored file in the OS file manager (Electron glue); elsewhere answers with its path. */
  'artifact.reveal': route<{ revealed: boolean; path: string }>()(z.object({ versionId }).strict()),
};
