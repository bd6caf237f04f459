import path from 'node:path';
import { BlobStore } from '../artifacts/blobStore';
import { GenerationEnvironments, supervisorInterpreters } from '../artifacts/environment';
import { MemoryArtifactIndex, SqliteArtifactIndex } from '../artifacts/index';
import { ArtifactService } from '../artifacts/service';
import { MemoryResponseCache, SqliteResponseCache } from '../science/cache';
import { ScienceClient } from '../science/client';
import type { EnvLookup } from '../science/endpoints';
import { HttpClient, type FetchLike } from '../science/http';
import { CONNECTORS } from '../science/registry';
import { openProvenanceDatabase } from './schema';
import { SqliteEvidenceStore } from './sqliteStore';
import { MemoryEvidenceStore, type EvidenceStore } from './store';

export interface ProvenanceServices {
  evidence: EvidenceStore;
  science: ScienceClient;
  artifacts: ArtifactService;
  close(): void;
}

export interface ProvenanceOptions {
  dataDir: string;
  /** Configuration lookup (environment over the data root's .env): endpoint overrides. */
  env: EnvLookup;
  /** A session's own endpoint overrides, if any (see ScienceClientOptions.envFor). */
  envFor?: (sessionId: string) => EnvLookup | null;
  /** The process environment the kernel supervisor resolves interpreters from. */
  processEnv: NodeJS.ProcessEnv;
  /** false: evidence, versions and the response cache live in memory (tests, throwaway CLI runs). */
  persistent?: boolean;
  fetch?: FetchLike;
  cacheTtlMs?: number;
}

/**
 * Evidence, science and artifacts over one store: `<data root>/provenance.sqlite3` until
 * the ledger carries PROVENANCE_SCHEMA_SQL as a migration, and blobs under
 * `<data root>/artifacts/blobs`.
 */
export function createProvenanceServices(opts: ProvenanceOptions): ProvenanceServices {
  const db = opts.persistent === false ? null : openProvenanceDatabase(path.join(opts.dataDir, 'provenance.sqlite3'));
  const evidence = db ? new SqliteEvidenceStore(db) : new MemoryEvidenceStore();
  const science = new ScienceClient({
    connectors: CONNECTORS,
    env: opts.env,
    ...(opts.envFor ? { envFor: opts.envFor } : {}),
    http: new HttpClient(opts.fetch ? { fetch: opts.fetch } : {}),
    cache: db ? new SqliteResponseCache(db) : new MemoryResponseCache(),
    evidence,
    ...(opts.cacheTtlMs !== undefined ? { ttlMs: opts.cacheTtlMs } : {}),
  });
  const artifacts = new ArtifactService({
    blobs: new BlobStore(path.join(opts.dataDir, 'artifacts', 'blobs')),
    index: db ? new SqliteArtifactIndex(db) : new MemoryArtifactIndex(),
    evidence,
    environments: new GenerationEnvironments(supervisorInterpreters(opts.processEnv)),
  });
  return { evidence, science, artifacts, close: () => db?.close() };
}
