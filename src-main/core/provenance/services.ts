import path from 'node:path';
import { BlobStore } from './blobStore';
import { GenerationEnvironments, supervisorInterpreters, type GenerationEnvironmentOf } from './environment';
import { MemoryArtifactIndex, type ArtifactIndex } from '../records/artifactIndex';
import { ArtifactService } from './artifactService';
import { MemoryResponseCache, type ResponseCache } from '../records/responseCache';
import { ScienceClient } from '../science/client';
import type { EnvLookup } from '../science/endpoints';
import { HttpClient, type FetchLike } from '../science/http';
import { CONNECTORS } from '../science/registry';
import { MemoryEvidenceStore, type EvidenceStore } from '../records/evidenceStore';

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
  /** Where evidence, versions and cached responses are kept (the ledger's tables); absent: in memory (tests). */
  stores?: { evidence: EvidenceStore; artifacts: ArtifactIndex; responses: ResponseCache };
  fetch?: FetchLike;
  cacheTtlMs?: number;
  /** The environment each kernel generation was started in (issue 18): provenance names it and probes its interpreter. */
  generationEnvironment?: GenerationEnvironmentOf;
}

/**
 * Evidence, science and artifacts over the ledger's tables (migration 3), with artifact
 * bytes in the content-addressed store under `<data root>/artifacts/blobs`.
 */
export function createProvenanceServices(opts: ProvenanceOptions): ProvenanceServices {
  const evidence = opts.stores?.evidence ?? new MemoryEvidenceStore();
  const science = new ScienceClient({
    connectors: CONNECTORS,
    env: opts.env,
    ...(opts.envFor ? { envFor: opts.envFor } : {}),
    http: new HttpClient(opts.fetch ? { fetch: opts.fetch } : {}),
    cache: opts.stores?.responses ?? new MemoryResponseCache(),
    evidence,
    ...(opts.cacheTtlMs !== undefined ? { ttlMs: opts.cacheTtlMs } : {}),
  });
  const artifacts = new ArtifactService({
    blobs: new BlobStore(path.join(opts.dataDir, 'artifacts', 'blobs')),
    index: opts.stores?.artifacts ?? new MemoryArtifactIndex(),
    evidence,
    environments: new GenerationEnvironments(supervisorInterpreters(opts.processEnv), undefined, opts.generationEnvironment),
  });
  // The stores belong to the ledger, which closes its own connection.
  return { evidence, science, artifacts, close: () => {} };
}
