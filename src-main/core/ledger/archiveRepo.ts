import type { Db } from './database';
import { nowIso, parseJson } from './util';

/** One archived result a session saw (migration 5): its bytes live in the content-addressed store. */
export interface ArchivedResultRecord {
  sessionId: string;
  sha256: string;
  runId: string | null;
  /** The tool name, or `cell` for a cell's observation. */
  source: string;
  bytes: number;
  lines: number;
  archivedAt: string;
}

/** One compaction of a run's context: the handoff that replaced its older turns. */
export interface CompactionRecord {
  id: string;
  sessionId: string;
  runId: string;
  turn: number;
  source: 'model' | 'fallback';
  handoff: unknown;
  summarisedMessages: number;
  tokensBefore: number;
  tokensAfter: number;
  windowTokens: number;
  /** Why the model's summary was not used, when the fallback wrote the handoff. */
  fallbackReason: string | null;
  at: string;
}

interface ArchivedRow {
  session_id: string;
  sha256: string;
  run_id: string | null;
  source: string;
  bytes: number;
  lines: number;
  archived_at: string;
}

interface CompactionRow {
  id: string;
  session_id: string;
  run_id: string;
  turn: number;
  source: 'model' | 'fallback';
  handoff_json: string;
  summarised_messages: number;
  tokens_before: number;
  tokens_after: number;
  window_tokens: number;
  fallback_reason: string | null;
  at: string;
}

const toArchived = (r: ArchivedRow): ArchivedResultRecord => ({
  sessionId: r.session_id,
  sha256: r.sha256,
  runId: r.run_id,
  source: r.source,
  bytes: r.bytes,
  lines: r.lines,
  archivedAt: r.archived_at,
});

const toCompaction = (r: CompactionRow): CompactionRecord => ({
  id: r.id,
  sessionId: r.session_id,
  runId: r.run_id,
  turn: r.turn,
  source: r.source,
  handoff: parseJson(r.handoff_json),
  summarisedMessages: r.summarised_messages,
  tokensBefore: r.tokens_before,
  tokensAfter: r.tokens_after,
  windowTokens: r.window_tokens,
  fallbackReason: r.fallback_reason,
  at: r.at,
});

/** The archive index and the compaction history of long sessions (both append-only). */
export class ArchiveRepo {
  private readonly q;

  constructor(db: Db) {
    this.q = {
      // The same bytes archived twice in a session are one row (content addressing).
      record: db.prepare(
        'INSERT OR IGNORE INTO archived_results (session_id, sha256, run_id, source, bytes, lines, archived_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      find: db.prepare('SELECT * FROM archived_results WHERE session_id = ? AND sha256 = ?'),
      bySession: db.prepare('SELECT * FROM archived_results WHERE session_id = ? ORDER BY archived_at, sha256'),
      compact: db.prepare(
        `INSERT INTO compactions (id, session_id, run_id, turn, source, handoff_json, summarised_messages, tokens_before, tokens_after, window_tokens, fallback_reason, at)
         VALUES (@id, @sessionId, @runId, @turn, @source, @handoff, @summarisedMessages, @tokensBefore, @tokensAfter, @windowTokens, @fallbackReason, @at)`,
      ),
      compactions: db.prepare('SELECT * FROM compactions WHERE session_id = ? ORDER BY at, rowid'),
    };
  }

  recordResult(input: Omit<ArchivedResultRecord, 'archivedAt'>): void {
    this.q.record.run(input.sessionId, input.sha256, input.runId, input.source, input.bytes, input.lines, nowIso());
  }

  /** The archive row of `sha256` in this session, or null when the session never archived it. */
  findResult(sessionId: string, sha256: string): ArchivedResultRecord | null {
    const row = this.q.find.get(sessionId, sha256) as ArchivedRow | undefined;
    return row ? toArchived(row) : null;
  }

  resultsBySession(sessionId: string): ArchivedResultRecord[] {
    return (this.q.bySession.all(sessionId) as ArchivedRow[]).map(toArchived);
  }

  recordCompaction(input: Omit<CompactionRecord, 'at'>): CompactionRecord {
    const at = nowIso();
    this.q.compact.run({ ...input, handoff: JSON.stringify(input.handoff), at });
    return { ...input, at };
  }

  compactionsBySession(sessionId: string): CompactionRecord[] {
    return (this.q.compactions.all(sessionId) as CompactionRow[]).map(toCompaction);
  }
}
