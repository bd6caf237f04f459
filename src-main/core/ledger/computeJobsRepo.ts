import type { Db } from './database';
import { notFound, nowIso } from './util';

/**
 * Compute jobs (migration 8): one row per job as asked, and its append-only events as they
 * happened. The job's current state is the fold of its events (compute/jobState.ts); a
 * job is open until a `harvested` event closes it.
 */

export type ComputeJobEventKind = 'submitted' | 'submit_failed' | 'state' | 'poll_error' | 'cancel_requested' | 'harvested';

export interface ComputeJobRecord {
  id: string;
  sessionId: string;
  runId: string | null;
  target: string;
  targetKind: 'slurm' | 'ssh';
  scriptSha256: string;
  /** What was asked, as the compute layer wrote it (language, inputs, outputs, resources, target snapshot). */
  spec: unknown;
  createdAt: string;
}

export interface ComputeJobEvent {
  seq: number;
  kind: ComputeJobEventKind;
  data: Record<string, unknown>;
  at: string;
}

interface JobRow {
  id: string;
  session_id: string;
  run_id: string | null;
  target: string;
  target_kind: 'slurm' | 'ssh';
  script_sha256: string;
  spec_json: string;
  created_at: string;
}

const toJob = (r: JobRow): ComputeJobRecord => ({
  id: r.id,
  sessionId: r.session_id,
  runId: r.run_id,
  target: r.target,
  targetKind: r.target_kind,
  scriptSha256: r.script_sha256,
  spec: JSON.parse(r.spec_json) as unknown,
  createdAt: r.created_at,
});

export class ComputeJobsRepo {
  constructor(private readonly db: Db) {}

  create(job: Omit<ComputeJobRecord, 'createdAt'> & { createdAt?: string }): ComputeJobRecord {
    const createdAt = job.createdAt ?? nowIso();
    this.db
      .prepare('INSERT INTO compute_jobs (id, session_id, run_id, target, target_kind, script_sha256, spec_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(job.id, job.sessionId, job.runId, job.target, job.targetKind, job.scriptSha256, JSON.stringify(job.spec), createdAt);
    return { ...job, createdAt };
  }

  /** Appends one event; its seq is the next of this job (in one statement, so two writers cannot share one). */
  append(jobId: string, kind: ComputeJobEventKind, data: Record<string, unknown>, at = nowIso()): ComputeJobEvent {
    const row = this.db
      .prepare(
        `INSERT INTO compute_job_events (job_id, seq, kind, data_json, at)
         VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM compute_job_events WHERE job_id = ?), ?, ?, ?)
         RETURNING seq`,
      )
      .get(jobId, jobId, kind, JSON.stringify(data), at) as { seq: number };
    return { seq: row.seq, kind, data, at };
  }

  /**
   * Records how an interrupted submission ended (`submitted` when the target had the job,
   * `submit_failed` when it never did) unless its submission is already settled, in one
   * statement: two processes recovering the same row (the app and the CLI) never both write
   * an answer, nor contradict each other. Answers false when the row was settled already.
   */
  settleSubmission(jobId: string, kind: 'submitted' | 'submit_failed', data: Record<string, unknown>, at = nowIso()): boolean {
    const r = this.db
      .prepare(
        `INSERT INTO compute_job_events (job_id, seq, kind, data_json, at)
         SELECT ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM compute_job_events WHERE job_id = ?), ?, ?, ?
         WHERE NOT EXISTS (SELECT 1 FROM compute_job_events WHERE job_id = ? AND kind IN ('submitted', 'submit_failed', 'harvested'))`,
      )
      .run(jobId, jobId, kind, JSON.stringify(data), at, jobId);
    return r.changes === 1;
  }

  /**
   * Claims a finished job's harvest for one poller: appends the terminal `state` event
   * carrying `harvestClaim` unless another claim younger than `since` exists, in one
   * statement, so two processes polling the same ledger (the app and the CLI) never both
   * harvest it. Answers false when someone else holds the claim.
   */
  claimHarvest(jobId: string, data: Record<string, unknown> & { harvestClaim: string }, since: string, at = nowIso()): boolean {
    const r = this.db
      .prepare(
        `INSERT INTO compute_job_events (job_id, seq, kind, data_json, at)
         SELECT ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM compute_job_events WHERE job_id = ?), 'state', ?, ?
         WHERE NOT EXISTS (
           SELECT 1 FROM compute_job_events c
           WHERE c.job_id = ? AND (c.kind = 'harvested' OR (
             c.kind = 'state' AND json_extract(c.data_json, '$.harvestClaim') IS NOT NULL AND c.at > ?
             -- A claimant whose harvest failed released its claim with the poll error it recorded.
             AND NOT EXISTS (SELECT 1 FROM compute_job_events r WHERE r.job_id = c.job_id AND r.seq > c.seq AND r.kind = 'poll_error' AND json_extract(r.data_json, '$.releasesClaim') = 1)
           ))
         )`,
      )
      .run(jobId, jobId, JSON.stringify(data), at, jobId, since);
    return r.changes === 1;
  }

  get(jobId: string): ComputeJobRecord | null {
    const row = this.db.prepare('SELECT * FROM compute_jobs WHERE id = ?').get(jobId) as JobRow | undefined;
    return row ? toJob(row) : null;
  }

  require(jobId: string): ComputeJobRecord {
    const job = this.get(jobId);
    if (!job) throw notFound('compute job', jobId, 'The Jobs panel, `openai4s compute status` and the agent’s compute_status tool list the jobs.');
    return job;
  }

  events(jobId: string): ComputeJobEvent[] {
    const rows = this.db.prepare('SELECT seq, kind, data_json, at FROM compute_job_events WHERE job_id = ? ORDER BY seq').all(jobId) as {
      seq: number;
      kind: ComputeJobEventKind;
      data_json: string;
      at: string;
    }[];
    return rows.map((r) => ({ seq: r.seq, kind: r.kind, data: JSON.parse(r.data_json) as Record<string, unknown>, at: r.at }));
  }

  /** A session's jobs, newest first (all sessions when none is named). */
  list(sessionId?: string): ComputeJobRecord[] {
    const rows = (
      sessionId
        ? this.db.prepare('SELECT * FROM compute_jobs WHERE session_id = ? ORDER BY created_at DESC, id DESC').all(sessionId)
        : this.db.prepare('SELECT * FROM compute_jobs ORDER BY created_at DESC, id DESC').all()
    ) as JobRow[];
    return rows.map(toJob);
  }

  /** Jobs not yet closed by a harvest (or a failed submission): what polling resumes at start. */
  open(): ComputeJobRecord[] {
    const rows = this.db
      .prepare(
        `SELECT j.* FROM compute_jobs j
         WHERE NOT EXISTS (SELECT 1 FROM compute_job_events e WHERE e.job_id = j.id AND e.kind IN ('harvested','submit_failed'))
         ORDER BY j.created_at`,
      )
      .all() as JobRow[];
    return rows.map(toJob);
  }
}
