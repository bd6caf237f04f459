import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { artifactCapabilities } from '../../../src-main/core/capabilities/tools/artifactTools';
import { BlobStore } from '../../../src-main/core/provenance/blobStore';
import { GenerationEnvironments, supervisorInterpreters } from '../../../src-main/core/provenance/environment';
import { MemoryArtifactIndex } from '../../../src-main/core/records/artifactIndex';
import { ArtifactService } from '../../../src-main/core/provenance/artifactService';
import { openLedger } from '../../../src-main/core/ledger/ledger';
import { MemoryEvidenceStore } from '../../../src-main/core/records/evidenceStore';
import type { HostCallHandler } from '../../../src-main/core/kernel/hostCalls';

export function tmpDir(prefix = 'oai4s-art-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function memoryArtifacts(dataDir = tmpDir()) {
  const evidence = new MemoryEvidenceStore();
  const blobs = new BlobStore(path.join(dataDir, 'artifacts', 'blobs'));
  const service = new ArtifactService({
    blobs,
    index: new MemoryArtifactIndex(),
    evidence,
    environments: new GenerationEnvironments(supervisorInterpreters({ PATH: process.env.PATH ?? '/usr/bin:/bin' })),
  });
  return { service, evidence, blobs, dataDir };
}

export function sqliteArtifacts(dataDir: string) {
  // The ledger holds evidence and artifact versions (migration 3).
  const ledger = openLedger(path.join(dataDir, 'ledger.sqlite3'));
  const evidence = ledger.provenance.evidence;
  const service = new ArtifactService({
    blobs: new BlobStore(path.join(dataDir, 'artifacts', 'blobs')),
    index: ledger.provenance.artifacts,
    evidence,
    environments: new GenerationEnvironments(supervisorInterpreters({ PATH: process.env.PATH ?? '/usr/bin:/bin' })),
  });
  return { service, evidence, db: { close: () => ledger.close() } };
}

/** The host side of host.save_artifact for kernel tests: the calling cell becomes the producer. */
export function saveArtifactHost(service: ArtifactService): HostCallHandler {
  const caps = artifactCapabilities(() => service);
  return {
    async call(method, args, ctx) {
      if (method !== 'save_artifact') throw new Error(`not served here: ${method}`);
      const out = await caps.save_artifact.execute(caps.save_artifact.input.parse(args), {
        sessionId: ctx.sessionId,
        runId: null,
        workspace: ctx.workspace,
        signal: new AbortController().signal,
        origin: 'cell',
        cell: { generation: ctx.generation, cellId: ctx.cellId, language: ctx.language },
      });
      return JSON.parse(out.text) as unknown;
    },
  };
}
