import type { ArtifactVersion } from '../../../src-preload/contract/artifacts';

export interface ArtifactRow {
  id: string;
  sessionId: string;
  path: string;
  createdAt: string;
}

/** The metadata of artifacts and their versions (bytes live in the BlobStore). */
export interface ArtifactIndex {
  /** Atomically: find or create the artifact of (session, path), number the next version, store it. */
  addVersion(artifact: ArtifactRow, build: (artifactId: string, number: number) => ArtifactVersion): ArtifactVersion;
  artifact(artifactId: string): ArtifactRow | null;
  artifacts(sessionId: string): ArtifactRow[];
  versions(artifactId: string): ArtifactVersion[];
  version(versionId: string): ArtifactVersion | null;
}

export class MemoryArtifactIndex implements ArtifactIndex {
  private rows = new Map<string, ArtifactRow>();
  private byArtifact = new Map<string, ArtifactVersion[]>();
  private byId = new Map<string, ArtifactVersion>();

  addVersion(artifact: ArtifactRow, build: (artifactId: string, number: number) => ArtifactVersion): ArtifactVersion {
    const existing = [...this.rows.values()].find((r) => r.sessionId === artifact.sessionId && r.path === artifact.path);
    const row = existing ?? artifact;
    if (!existing) this.rows.set(row.id, row);
    const list = this.byArtifact.get(row.id) ?? [];
    const v = build(row.id, list.length + 1);
    list.push(v);
    this.byArtifact.set(row.id, list);
    this.byId.set(v.id, v);
    return v;
  }
  artifact(id: string) {
    return this.rows.get(id) ?? null;
  }
  artifacts(sessionId: string) {
    return [...this.rows.values()].filter((r) => r.sessionId === sessionId);
  }
  versions(artifactId: string) {
    return [...(this.byArtifact.get(artifactId) ?? [])];
  }
  version(versionId: string) {
    return this.byId.get(versionId) ?? null;
  }
}
