import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BlobStore } from '../../../src-main/core/artifacts/blobStore';
import { GenerationEnvironments, supervisorInterpreters } from '../../../src-main/core/artifacts/environment';
import { MemoryArtifactIndex, SqliteArtifactIndex } from '../../../src-main/core/artifacts/index';
import { ArtifactService } from '../../../src-main/core/artifacts/service';
import { openProvenanceDatabase } from '../../../src-main/core/evidence/schema';
import { SqliteEvidenceStore } from '../../../src-main/core/evidence/sqliteStore';
import { MemoryEvidenceStore } from '../../../src-main/core/evidence/store';

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
  const db = openProvenanceDatabase(path.join(dataDir, 'provenance.sqlite3'));
  const evidence = new SqliteEvidenceStore(db);
  const service = new ArtifactService({
    blobs: new BlobStore(path.join(dataDir, 'artifacts', 'blobs')),
    index: new SqliteArtifactIndex(db),
    evidence,
    environments: new GenerationEnvironments(supervisorInterpreters({ PATH: process.env.PATH ?? '/usr/bin:/bin' })),
  });
  return { service, evidence, db };
}
