import { createHash } from 'node:crypto';
import { PROVENANCE_SQL } from './provenanceSchema';

/**
 * The ledger's schema, as an ordered list of migrations. A migration is never edited once
 * released: its checksum is recorded in `schema_migrations` and verified on every open,
 * so a changed migration is refused instead of silently diverging. Add a new one instead.
 * Each runs in one transaction together with its `schema_migrations` row and the
 * `PRAGMA user_version` bump.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const v1 = `
CREATE TABLE sessions (
  id          TEXT PRIMARY KEY,
  title       TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL,
  revision    INTEGER NOT NULL DEFAULT 1 CHECK (revision >= 1),
  -- A deleted session is a tombstone: its stream is append-only audit data, so the rows stay.
  deleted_at  TEXT
);
CREATE INDEX sessions_by_update ON sessions (deleted_at, updated_at DESC);

CREATE TABLE runs (
  id               TEXT PRIMARY KEY,
  session_id       TEXT NOT NULL REFERENCES sessions (id),
  mutation_id      TEXT NOT NULL,
  message          TEXT NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('queued','processing','completed','failed','cancelled','expired','unavailable')),
  failure_code     TEXT,
  failure_message  TEXT,
  created_at       TEXT NOT NULL,
  started_at       TEXT,
  finished_at      TEXT,
  provider         TEXT,
  model            TEXT,
  usage_json       TEXT,
  cost_usd         REAL,
  UNIQUE (session_id, mutation_id),
  CHECK ((status = 'failed') = (failure_code IS NOT NULL) OR status IN ('cancelled','expired','unavailable'))
);
CREATE INDEX runs_by_session ON runs (session_id, created_at);
CREATE INDEX runs_by_status ON runs (status);

-- The append-only event log. WITHOUT ROWID: the primary key is the order, and the
-- rows are stored once, clustered by (session, seq), which is how they are read.
CREATE TABLE stream_events (
  session_id  TEXT NOT NULL REFERENCES sessions (id),
  seq         INTEGER NOT NULL CHECK (seq >= 1),
  run_id      TEXT REFERENCES runs (id),
  type        TEXT NOT NULL,
  chunk       TEXT NOT NULL,
  at          INTEGER NOT NULL,
  PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;

CREATE TRIGGER stream_events_no_update BEFORE UPDATE ON stream_events
BEGIN SELECT RAISE(ABORT, 'stream_events is append-only: UPDATE refused'); END;
CREATE TRIGGER stream_events_no_delete BEFORE DELETE ON stream_events
BEGIN SELECT RAISE(ABORT, 'stream_events is append-only: DELETE refused'); END;

CREATE TABLE settings (
  key         TEXT PRIMARY KEY,
  value_json  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);
`;

const v2 = `
-- One agent action: a native tool batch or one cell attempt. Results are written back per
-- event; a group still 'running' at open time was cut off by a crash (see repair.ts).
CREATE TABLE action_groups (
  id                    TEXT PRIMARY KEY,
  session_id            TEXT NOT NULL REFERENCES sessions (id),
  run_id                TEXT NOT NULL REFERENCES runs (id),
  kind                  TEXT NOT NULL CHECK (kind IN ('tool_batch','cell')),
  turn                  INTEGER NOT NULL,
  status                TEXT NOT NULL CHECK (status IN ('running','completed','failed','interrupted')),
  kernel_generation_id  TEXT REFERENCES kernel_generations (id),
  started_at            TEXT NOT NULL,
  finished_at           TEXT
);
CREATE INDEX action_groups_by_run ON action_groups (run_id);
CREATE INDEX action_groups_running ON action_groups (status) WHERE status = 'running';

CREATE TABLE action_events (
  group_id        TEXT NOT NULL REFERENCES action_groups (id),
  idx             INTEGER NOT NULL,
  tool_call_id    TEXT,
  name            TEXT NOT NULL,
  raw_arguments   TEXT NOT NULL,
  arguments_json  TEXT,
  parse_error     TEXT,
  side_effect     TEXT NOT NULL CHECK (side_effect IN ('none','read','write','external')),
  result_json     TEXT,
  is_error        INTEGER NOT NULL DEFAULT 0 CHECK (is_error IN (0, 1)),
  started_at      TEXT NOT NULL,
  finished_at     TEXT,
  PRIMARY KEY (group_id, idx)
);

CREATE TABLE kernel_generations (
  id          TEXT PRIMARY KEY,
  session_id  TEXT NOT NULL REFERENCES sessions (id),
  language    TEXT NOT NULL CHECK (language IN ('python','r')),
  generation  INTEGER NOT NULL,
  pid         INTEGER,
  env_json    TEXT,
  started_at  TEXT NOT NULL,
  ended_at    TEXT,
  end_reason  TEXT,
  UNIQUE (session_id, language, generation)
);

CREATE TABLE permission_requests (
  id             TEXT PRIMARY KEY,
  session_id     TEXT NOT NULL REFERENCES sessions (id),
  run_id         TEXT REFERENCES runs (id),
  generation_id  TEXT REFERENCES kernel_generations (id),
  method         TEXT NOT NULL,
  target         TEXT NOT NULL,
  reason         TEXT NOT NULL,
  status         TEXT NOT NULL CHECK (status IN ('pending','allowed_once','allowed_session','denied','expired')),
  created_at     TEXT NOT NULL,
  decided_at     TEXT
);
CREATE INDEX permission_requests_by_session ON permission_requests (session_id, status);
`;

const v4 = `
-- Issue 18: each session's kernel environment per language, as an append-only ledger of
-- changes. The current environment is the newest applied row; a failed creation is a row
-- too (it names the failing step) but never moves the pointer.
CREATE TABLE environment_changes (
  seq                      INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id               TEXT NOT NULL REFERENCES sessions (id),
  language                 TEXT NOT NULL CHECK (language IN ('python','r')),
  action                   TEXT NOT NULL CHECK (action IN ('use','create','rollback')),
  status                   TEXT NOT NULL CHECK (status IN ('applied','failed')),
  environment_id           TEXT NOT NULL,
  interpreter              TEXT,
  previous_environment_id  TEXT,
  previous_interpreter     TEXT,
  failed_step              TEXT,
  detail                   TEXT,
  packages_json            TEXT,
  at                       TEXT NOT NULL,
  CHECK ((status = 'failed') = (failed_step IS NOT NULL)),
  CHECK (status = 'failed' OR interpreter IS NOT NULL)
);
CREATE INDEX environment_changes_by_session ON environment_changes (session_id, language, seq);
CREATE TRIGGER environment_changes_no_update BEFORE UPDATE ON environment_changes
BEGIN SELECT RAISE(ABORT, 'environment_changes is append-only: UPDATE refused'); END;
CREATE TRIGGER environment_changes_no_delete BEFORE DELETE ON environment_changes
BEGIN SELECT RAISE(ABORT, 'environment_changes is append-only: DELETE refused'); END;

-- What a kernel generation ran in: its environment, interpreter and every installed
-- package with its version (the export's environment lock), probed once when it started.
CREATE TABLE environment_locks (
  generation_id        TEXT PRIMARY KEY REFERENCES kernel_generations (id),
  environment_id       TEXT NOT NULL,
  interpreter          TEXT NOT NULL,
  interpreter_version  TEXT,
  lock_json            TEXT NOT NULL,
  recorded_at          TEXT NOT NULL
);
`;

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'sessions, runs, append-only stream_events, settings', sql: v1 },
  { version: 2, name: 'action groups and events, kernel generations, permission requests', sql: v2 },
  { version: 3, name: 'evidence, artifacts and artifact versions, science response cache', sql: PROVENANCE_SQL },
  { version: 4, name: 'session environment changes (append-only) and per-generation environment locks', sql: v4 },
];

export function migrationChecksum(m: Migration): string {
  return createHash('sha256').update(m.sql).digest('hex');
}
