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

const v7 = `
-- Issue 20: delegation. A child agent's run is a run with a parent run (a tree rooted at
-- a user's run); depth 0 is a user's run, its children 1, down to 4 (which cannot delegate).
-- The child's task is its message. Children are never queued: they start as processing.
ALTER TABLE runs ADD COLUMN parent_run_id TEXT REFERENCES runs (id);
ALTER TABLE runs ADD COLUMN depth INTEGER NOT NULL DEFAULT 0 CHECK (depth BETWEEN 0 AND 4);
CREATE INDEX runs_by_parent ON runs (parent_run_id) WHERE parent_run_id IS NOT NULL;
`;

const v5 = `
-- Issue 19: long sessions. A large tool or cell result is archived content-addressed (its
-- bytes under <data root>/tool-results/, named by sha256); this row says which session saw
-- it, so recall reads only what the calling session archived.
CREATE TABLE archived_results (
  session_id   TEXT NOT NULL REFERENCES sessions (id),
  sha256       TEXT NOT NULL CHECK (length(sha256) = 64),
  run_id       TEXT REFERENCES runs (id),
  source       TEXT NOT NULL,
  bytes        INTEGER NOT NULL CHECK (bytes >= 0),
  lines        INTEGER NOT NULL CHECK (lines >= 0),
  archived_at  TEXT NOT NULL,
  PRIMARY KEY (session_id, sha256)
);
CREATE TRIGGER archived_results_no_update BEFORE UPDATE ON archived_results
BEGIN SELECT RAISE(ABORT, 'archived_results is append-only: UPDATE refused'); END;
CREATE TRIGGER archived_results_no_delete BEFORE DELETE ON archived_results
BEGIN SELECT RAISE(ABORT, 'archived_results is append-only: DELETE refused'); END;

-- Each compaction of a run's context: the structured handoff that replaced the older turns,
-- whether the model wrote it or the deterministic fallback did (and why), and the sizes.
CREATE TABLE compactions (
  id                   TEXT PRIMARY KEY,
  session_id           TEXT NOT NULL REFERENCES sessions (id),
  run_id               TEXT NOT NULL REFERENCES runs (id),
  turn                 INTEGER NOT NULL,
  source               TEXT NOT NULL CHECK (source IN ('model','fallback')),
  handoff_json         TEXT NOT NULL,
  summarised_messages  INTEGER NOT NULL,
  tokens_before        INTEGER NOT NULL,
  tokens_after         INTEGER NOT NULL,
  window_tokens        INTEGER NOT NULL,
  fallback_reason      TEXT,
  at                   TEXT NOT NULL
);
CREATE INDEX compactions_by_session ON compactions (session_id, at);
CREATE TRIGGER compactions_no_update BEFORE UPDATE ON compactions
BEGIN SELECT RAISE(ABORT, 'compactions is append-only: UPDATE refused'); END;
CREATE TRIGGER compactions_no_delete BEFORE DELETE ON compactions
BEGIN SELECT RAISE(ABORT, 'compactions is append-only: DELETE refused'); END;
`;

const v6 = `
-- Issue 19: memory. Every change to a memory is one event (append-only): a memory's current
-- text is its last remember/edit event, and a forget event ends it. Scope: one session, or
-- the whole data root (every session of this ledger). Origin: who made the event, the user
-- (the Memory panel) or the agent (remember/forget tools, host.remember in a cell).
CREATE TABLE memory_events (
  seq         INTEGER PRIMARY KEY AUTOINCREMENT,
  memory_id   TEXT NOT NULL,
  action      TEXT NOT NULL CHECK (action IN ('remember','edit','forget')),
  scope       TEXT NOT NULL CHECK (scope IN ('session','data_root')),
  session_id  TEXT REFERENCES sessions (id),
  origin      TEXT NOT NULL CHECK (origin IN ('user','agent')),
  text        TEXT,
  run_id      TEXT REFERENCES runs (id),
  at          TEXT NOT NULL,
  CHECK ((action = 'forget') = (text IS NULL)),
  CHECK (scope = 'data_root' OR session_id IS NOT NULL)
);
CREATE INDEX memory_events_by_memory ON memory_events (memory_id, seq);
CREATE INDEX memory_events_by_session ON memory_events (session_id, seq);
CREATE TRIGGER memory_events_no_update BEFORE UPDATE ON memory_events
BEGIN SELECT RAISE(ABORT, 'memory_events is append-only: UPDATE refused'); END;
CREATE TRIGGER memory_events_no_delete BEFORE DELETE ON memory_events
BEGIN SELECT RAISE(ABORT, 'memory_events is append-only: DELETE refused'); END;

-- The agent's visible plan: each change (write_todos, update_plan_step) appends the whole
-- plan of the session as it now is; the newest row is the current plan.
CREATE TABLE plan_snapshots (
  seq         INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id  TEXT NOT NULL REFERENCES sessions (id),
  run_id      TEXT REFERENCES runs (id),
  steps_json  TEXT NOT NULL,
  at          TEXT NOT NULL
);
CREATE INDEX plan_snapshots_by_session ON plan_snapshots (session_id, seq);
CREATE TRIGGER plan_snapshots_no_update BEFORE UPDATE ON plan_snapshots
BEGIN SELECT RAISE(ABORT, 'plan_snapshots is append-only: UPDATE refused'); END;
CREATE TRIGGER plan_snapshots_no_delete BEFORE DELETE ON plan_snapshots
BEGIN SELECT RAISE(ABORT, 'plan_snapshots is append-only: DELETE refused'); END;
`;

const v8 = `
-- Issue 23: compute jobs on Slurm clusters and SSH hosts. A job row is what was asked
-- (target, script hash, inputs, outputs, resources: never a key or a password); its events
-- are what happened (submitted with the scheduler's id, each state change, harvest), so a
-- job outlives the app: polling resumes from the last event at the next start.
CREATE TABLE compute_jobs (
  id             TEXT PRIMARY KEY,
  session_id     TEXT NOT NULL REFERENCES sessions (id),
  run_id         TEXT REFERENCES runs (id),
  target         TEXT NOT NULL,
  target_kind    TEXT NOT NULL CHECK (target_kind IN ('slurm','ssh')),
  script_sha256  TEXT NOT NULL CHECK (length(script_sha256) = 64),
  spec_json      TEXT NOT NULL,
  created_at     TEXT NOT NULL
);
CREATE INDEX compute_jobs_by_session ON compute_jobs (session_id, created_at);
CREATE TRIGGER compute_jobs_no_update BEFORE UPDATE ON compute_jobs
BEGIN SELECT RAISE(ABORT, 'compute_jobs is append-only: UPDATE refused'); END;
CREATE TRIGGER compute_jobs_no_delete BEFORE DELETE ON compute_jobs
BEGIN SELECT RAISE(ABORT, 'compute_jobs is append-only: DELETE refused'); END;

CREATE TABLE compute_job_events (
  job_id     TEXT NOT NULL REFERENCES compute_jobs (id),
  seq        INTEGER NOT NULL CHECK (seq >= 1),
  kind       TEXT NOT NULL CHECK (kind IN ('submitted','submit_failed','state','poll_error','cancel_requested','harvested')),
  data_json  TEXT NOT NULL,
  at         TEXT NOT NULL,
  PRIMARY KEY (job_id, seq)
) WITHOUT ROWID;
CREATE TRIGGER compute_job_events_no_update BEFORE UPDATE ON compute_job_events
BEGIN SELECT RAISE(ABORT, 'compute_job_events is append-only: UPDATE refused'); END;
CREATE TRIGGER compute_job_events_no_delete BEFORE DELETE ON compute_job_events
BEGIN SELECT RAISE(ABORT, 'compute_job_events is append-only: DELETE refused'); END;
`;

const v9 = `
-- Issue 27: every safety check of a step, append-only: biosecurity screenings of the
-- trajectory (pre-scan hits, the screener's verdict and reason), sequence-identity checks,
-- and the pre-execution review of each cell (verdict and flagged lines). A row is written
-- once the decision is known (allowed, asked and answered, refused, run ended).
CREATE TABLE safety_checks (
  id            TEXT PRIMARY KEY,
  session_id    TEXT NOT NULL REFERENCES sessions (id),
  run_id        TEXT REFERENCES runs (id),
  turn          INTEGER,
  layer         TEXT NOT NULL CHECK (layer IN ('trajectory','sequence','cell_review')),
  subject       TEXT NOT NULL CHECK (subject IN ('message','tools','cell','user_cell')),
  subject_sha256 TEXT NOT NULL,
  trigger_json  TEXT NOT NULL,
  checked_by    TEXT NOT NULL,
  verdict       TEXT NOT NULL CHECK (verdict IN ('allow','escalate','block','unavailable','low','high','refused')),
  reason        TEXT NOT NULL,
  outcome       TEXT NOT NULL CHECK (outcome IN ('proceeded','approved','denied','refused','ended')),
  request_id    TEXT,
  duration_ms   REAL NOT NULL,
  at            TEXT NOT NULL
);
CREATE INDEX safety_checks_by_session ON safety_checks (session_id, at);
CREATE TRIGGER safety_checks_no_update BEFORE UPDATE ON safety_checks
BEGIN SELECT RAISE(ABORT, 'safety_checks is append-only: UPDATE refused'); END;
CREATE TRIGGER safety_checks_no_delete BEFORE DELETE ON safety_checks
BEGIN SELECT RAISE(ABORT, 'safety_checks is append-only: DELETE refused'); END;
`;

const v10 = `
-- Issue 25: the cells the user ran in the Notebook tab, append-only. Editing a cell and
-- running it again adds a version of it (same cell_key, version + 1); earlier versions
-- stay. A row is written once the cell has finished, with its whole result.
CREATE TABLE user_cells (
  id           TEXT PRIMARY KEY,
  session_id   TEXT NOT NULL REFERENCES sessions (id),
  cell_key     TEXT NOT NULL,
  version      INTEGER NOT NULL CHECK (version >= 1),
  language     TEXT NOT NULL CHECK (language IN ('python','r')),
  code         TEXT NOT NULL,
  status       TEXT NOT NULL,
  generation   TEXT,
  result_json  TEXT NOT NULL,
  evidence_id  TEXT,
  started_at   TEXT NOT NULL,
  finished_at  TEXT NOT NULL,
  UNIQUE (session_id, cell_key, version)
);
CREATE INDEX user_cells_by_session ON user_cells (session_id, finished_at);
CREATE TRIGGER user_cells_no_update BEFORE UPDATE ON user_cells
BEGIN SELECT RAISE(ABORT, 'user_cells is append-only: UPDATE refused'); END;
CREATE TRIGGER user_cells_no_delete BEFORE DELETE ON user_cells
BEGIN SELECT RAISE(ABORT, 'user_cells is append-only: DELETE refused'); END;
`;

const v11 = `
-- Opening a long session: its history folded once (contract/fold.ts), stored in segments.
-- Derived from stream_events, never the truth: a segment is one user turn, the chunks
-- from_seq..to_seq up to the next user-message, so the chunks after it fold from there alone.
-- A segment folded by another fold version is not used; rows may be rewritten or dropped.
CREATE TABLE history_folds (
  session_id    TEXT NOT NULL REFERENCES sessions (id),
  fold_version  INTEGER NOT NULL,
  from_seq      INTEGER NOT NULL CHECK (from_seq >= 1),
  to_seq        INTEGER NOT NULL,
  messages      TEXT NOT NULL,
  PRIMARY KEY (session_id, fold_version, from_seq),
  CHECK (to_seq >= from_seq)
) WITHOUT ROWID;
`;

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'sessions, runs, append-only stream_events, settings', sql: v1 },
  { version: 2, name: 'action groups and events, kernel generations, permission requests', sql: v2 },
  { version: 3, name: 'evidence, artifacts and artifact versions, science response cache', sql: PROVENANCE_SQL },
  { version: 4, name: 'session environment changes (append-only) and per-generation environment locks', sql: v4 },
  { version: 5, name: 'archived large results and compaction handoffs (long sessions)', sql: v5 },
  { version: 6, name: 'memory events and plan snapshots (append-only)', sql: v6 },
  { version: 7, name: 'child runs: parent run id and depth (delegation)', sql: v7 },
  { version: 8, name: 'compute jobs and their append-only events (Slurm and SSH targets)', sql: v8 },
  { version: 9, name: 'safety checks: biosecurity screenings and pre-execution cell reviews (append-only)', sql: v9 },
  { version: 10, name: 'user cells of the Notebook tab, every version (append-only)', sql: v10 },
  { version: 11, name: 'stored folds of session histories (derived from stream_events)', sql: v11 },
];

export function migrationChecksum(m: Migration): string {
  return createHash('sha256').update(m.sql).digest('hex');
}
