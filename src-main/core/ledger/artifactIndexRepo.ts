import type Database from 'better-sqlite3';
import type { ArtifactVersion } from '../../../src-preload/contract/artifacts';
import type { ArtifactIndex, ArtifactRow } from '../records/artifactIndex';

interface VersionRow {
  id: string;
  artifact_id: string;
  number: number;
  sha256: string;
  size: number;
  mime: string;
  created_at: string;
  provenance: string;
  evidence_id: string;
  session_id: string;
  path: string;
}

const VERSION_SELECT = `SELECT v.*, a.session_id, a.path FROM artifact_versions v JOIN artifacts a ON a.id = v.artifact_id`;

const fromVersionRow = (r: VersionRow): ArtifactVersion => ({
  id: r.id,
  artifactId: r.artifact_id,
  sessionId: r.session_id,
  number: r.number,
  path: r.path,
  sha256: r.sha256,
  size: r.size,
  mime: r.mime,
  createdAt: r.created_at,
  provenance: JSON.parse(r.provenance) as ArtifactVersion['provenance'],
  evidenceId: r.evidence_id,
});

interface Row {
  id: string;
  session_id: string;
  path: string;
  created_at: string;
}
const fromRow = (r: Row): ArtifactRow => ({ id: r.id, sessionId: r.session_id, path: r.path, createdAt: r.created_at });

/** Artifacts in the ledger (tables `artifacts` and `artifact_versions`, migration 3). */
export class SqliteArtifactIndex implements ArtifactIndex {
  constructor(private readonly db: Database.Database) {}

  addVersion(artifact: ArtifactRow, build: (artifactId: string, number: number) => ArtifactVersion): ArtifactVersion {
    return this.db.transaction(() => {
      this.db
        .prepare('INSERT OR IGNORE INTO artifacts (id, session_id, path, created_at) VALUES (?, ?, ?, ?)')
        .run(artifact.id, artifact.sessionId, artifact.path, artifact.createdAt);
      const row = this.db.prepare('SELECT * FROM artifacts WHERE session_id = ? AND path = ?').get(artifact.sessionId, artifact.path) as Row;
      const { n } = this.db.prepare('SELECT COALESCE(MAX(number), 0) AS n FROM artifact_versions WHERE artifact_id = ?').get(row.id) as { n: number };
      const v = build(row.id, n + 1);
      this.db
        .prepare(
          `INSERT INTO artifact_versions (id, artifact_id, number, sha256, size, mime, created_at, provenance, evidence_id)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(v.id, v.artifactId, v.number, v.sha256, v.size, v.mime, v.createdAt, JSON.stringify(v.provenance), v.evidenceId);
      return v;
    })();
  }
  artifact(id: string) {
    const r = this.db.prepare('SELECT * FROM artifacts WHERE id = ?').get(id) as Row | undefined;
    return r ? fromRow(r) : null;
  }
  artifacts(sessionId: string) {
    return (this.db.prepare('SELECT * FROM artifacts WHERE session_id = ? ORDER BY created_at, id').all(sessionId) as Row[]).map(fromRow);
  }
  versions(artifactId: string) {
    return (this.db.prepare(`${VERSION_SELECT} WHERE v.artifact_id = ? ORDER BY v.number`).all(artifactId) as VersionRow[]).map(fromVersionRow);
  }
  version(versionId: string) {
    const r = this.db.prepare(`${VERSION_SELECT} WHERE v.id = ?`).get(versionId) as VersionRow | undefined;
    return r ? fromVersionRow(r) : null;
  }
}
