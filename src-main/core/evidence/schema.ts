import Database from 'better-sqlite3';
import { sqliteOptions } from '../config/sqlite';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The tables of evidence, artifact versions and the science response cache. Written as
 * one migration body so it can be appended to the ledger's migration list unchanged;
 * until then `openProvenanceDatabase` applies it to its own file (IF NOT EXISTS, so
 * opening twice is harmless). No foreign key to `sessions`: the CLI retrieves without one.
 */
export const PROVENANCE_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS evidence (
  session_id  TEXT NOT NULL,
  id          TEXT NOT NULL,
  kind        TEXT NOT NULL CHECK (kind IN ('retrieval','page','cell','artifact_version')),
  title       TEXT NOT NULL,
  snippet     TEXT NOT NULL,
  envelope    TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  PRIMARY KEY (session_id, id)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS artifacts (
  id          TEXT PRIMARY KEY,
  session_id  TEXT NOT NULL,
  path        TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  UNIQUE (session_id, path)
);

CREATE TABLE IF NOT EXISTS artifact_versions (
  id           TEXT PRIMARY KEY,
  artifact_id  TEXT NOT NULL REFERENCES artifacts (id),
  number       INTEGER NOT NULL CHECK (number >= 1),
  sha256       TEXT NOT NULL,
  size         INTEGER NOT NULL,
  mime         TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  provenance   TEXT NOT NULL,
  evidence_id  TEXT NOT NULL,
  UNIQUE (artifact_id, number)
);

CREATE TABLE IF NOT EXISTS science_response_bodies (
  sha256  TEXT PRIMARY KEY,
  bytes   BLOB NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS science_response_cache (
  key           TEXT PRIMARY KEY,
  request_url   TEXT NOT NULL,
  status        INTEGER NOT NULL,
  content_type  TEXT,
  headers       TEXT NOT NULL,
  retrieved_at  TEXT NOT NULL,
  sha256        TEXT NOT NULL REFERENCES science_response_bodies (sha256),
  expires_at    INTEGER NOT NULL
) WITHOUT ROWID;
`;

/** Opens (creating) `<dataDir>/provenance.sqlite3` with the schema applied. */
export function openProvenanceDatabase(file: string): Database.Database {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const db = new Database(file, sqliteOptions());
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.exec(PROVENANCE_SCHEMA_SQL);
  return db;
}
