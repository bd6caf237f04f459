/**
 * Migration 3: evidence, versioned artifacts and the science response cache, in the
 * ledger with everything else (one connection, the same durability). No foreign key to
 * `sessions`: the CLI retrieves outside any session.
 */
export const PROVENANCE_SQL = `
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

