import type { SessionDetail, SessionHistory, SessionSummary } from '../../../src-preload/contract/sessions';
import { ActionsRepo } from './actionsRepo';
import { AuditJournal, encodeJournal, newJournalFile, replayAuditJournals, type JournalRecord } from './auditJournal';
import { ComputeJobsRepo } from './computeJobsRepo';
import { ArchiveRepo } from './archiveRepo';
import { AuditWriter, type AuditWriterOptions } from './auditWriter/auditWriter';
import { Checkpointer, type CheckpointerOptions } from './checkpointer';
import { sqliteOptions } from '../config/sqlite';
import { openDatabase, type Db, type OpenDatabaseOptions } from './database';
import { EnvironmentsRepo } from './environmentsRepo';
import { EventLog, LAZY_COMMIT_MS, type EventLogOptions } from './eventLog';
import { HistoryCache } from './historyCache';
import { HistoryFolds } from './historyFolds';
import { applyJournalRecord } from './journalApply';
import { KernelsRepo } from './kernelsRepo';
import { MemoryRepo } from './memoryRepo';
import { lockLedger } from './ownership';
import { PermissionsRepo } from './permissionsRepo';
import { repairOnOpen, type RepairReport } from './repair';
import { RunsRepo } from './runsRepo';
import { SafetyChecksRepo } from './safetyChecksRepo';
import { UserCellsRepo, type UserCellInput } from './userCellsRepo';
import { SessionsRepo } from './sessionsRepo';
import { SettingsRepo } from './settingsRepo';
import { SqliteArtifactIndex } from './artifactIndexRepo';
import { SqliteEvidenceStore } from './evidenceRepo';
import { SqliteResponseCache } from './responseCacheRepo';
import type { UserCellRecord } from '../../../src-preload/contract/notebook';
import type { NewEvidence } from '../records/evidenceStore';

export const LEDGER_FILE = 'ledger.sqlite3';

/** The ledger always opens at the newest schema (older prefixes are for database.ts tests). */
export interface LedgerOptions extends Omit<OpenDatabaseOptions, 'migrations'> {
  events?: Omit<EventLogOptions, 'onCommit'>;
  /** WAL checkpoints on a worker thread (checkpointer.ts); false: SQLite's automatic ones on this connection. */
  checkpoints?: CheckpointerOptions | false;
  /** The audit writer thread (auditWriter/auditWriter.ts); false: the rows are committed on this thread. */
  auditWriter?: Pick<AuditWriterOptions, 'source'> | false;
}

/**
 * The ledger: the app's truth (DESIGN.md: Data). One SQLite connection, small typed
 * repositories, and the projections the routes need. No SQL lives outside this folder.
 */
export interface Ledger {
  readonly file: string;
  readonly schemaVersion: number;
  /** The copy taken before migrating, if this open migrated an existing database. */
  readonly backup: string | null;
  /** What crash repair did at open; null when another live process had the ledger open (see ownership.ts). */
  readonly repair: RepairReport | null;
  /** Host-call audit records replayed from journals of processes that died (auditJournal.ts); null when not alone. */
  readonly auditReplay: { applied: number; skipped: number } | null;
  /**
   * Where a cell's host-call audit rows are made durable before the call is answered, at the
   * `normal` level (auditJournal.ts); null at `full`, where each call's rows are committed
   * (and fsynced) before it is answered.
   */
  readonly auditJournal: AuditJournal | null;
  /** Commits a cell's journaled host-call rows off the main thread; null at `full` (no journal) or when turned off. */
  readonly auditWriter: AuditWriter | null;
  readonly sessions: SessionsRepo;
  readonly runs: RunsRepo;
  readonly events: EventLog;
  readonly actions: ActionsRepo;
  readonly kernels: KernelsRepo;
  readonly permissions: PermissionsRepo;
  readonly settings: SettingsRepo;
  /** Sessions' kernel environments (append-only changes) and generations' environment locks (migration 4). */
  readonly environments: EnvironmentsRepo;
  /** Evidence, artifact versions and cached science responses (migration 3). */
  readonly provenance: { evidence: SqliteEvidenceStore; artifacts: SqliteArtifactIndex; responses: SqliteResponseCache };
  /** Memories (append-only events) and the sessions' plan snapshots (migration 6). */
  readonly memory: MemoryRepo;
  /** Archived large results and compaction handoffs of long sessions (migration 5). */
  readonly archive: ArchiveRepo;
  /** Biosecurity screenings and pre-execution cell reviews (migration 9). */
  readonly safety: SafetyChecksRepo;
  /** The Notebook tab's user cells, every version (migration 10). */
  readonly userCells: UserCellsRepo;
  /** Compute jobs on Slurm clusters and SSH hosts, and their append-only events (migration 8). */
  readonly compute: ComputeJobsRepo;
  /**
   * Makes rows durable without a commit of their own, for a caller that answers on them:
   * `records` go to the journal now (`normal`) and `write` runs in the next group commit
   * (within `lazyCommitMs`, or sooner with any other commit or read); at `full`, `write` is
   * committed at the end of this turn. Resolves once they are durable. If the journal cannot
   * be written, it resolves when the commit is made.
   */
  journaled(records: JournalRecord[], write: () => void): Promise<void>;
  /**
   * A cell the user ran: its evidence (if given) and its record, durable together through
   * `journaled`. Resolves with the record.
   */
  recordUserCell(input: Omit<UserCellInput, 'evidenceId'>, evidence: NewEvidence | null): Promise<UserCellRecord>;
  createSession(title?: string): SessionSummary;
  detail(sessionId: string): SessionDetail;
  /**
   * The session's messages, folded from its stored stream: the same fold the renderer runs
   * live. Kept for recently used sessions and brought up to date with newer chunks only
   * (historyCache.ts); the messages are shared, never to be changed by a caller.
   */
  history(sessionId: string): SessionHistory;
  /** Sessions' histories folded and stored, for opening long sessions (historyFolds.ts). */
  readonly folds: HistoryFolds;
  /** How many sessions' folded histories are kept (diagnostics and the lifecycle test). */
  historiesHeld(): number;
  /** The WAL checkpoints off the main thread; null when turned off (then SQLite checkpoints in the committing thread). */
  readonly checkpointer: Checkpointer | null;
  deleteSession(sessionId: string): void;
  /** Commits queued chunks and closes the connection. */
  close(): void;
  /** For tests and diagnostics inside this folder's tests only. */
  readonly db: Db;
}

export function openLedger(file: string, options: LedgerOptions = {}): Ledger {
  const opened = openDatabase(file, options);
  const { db } = opened;
  // Held for the ledger's lifetime: while it is held, no other process repairs our runs.
  const lock = lockLedger(file);
  try {
    const sessions = new SessionsRepo(db);
    const events = new EventLog(db, {
      ...options.events,
      sessions,
      onCommit: (touched) => {
        for (const [id, at] of touched) sessions.touch(id, new Date(at).toISOString());
      },
    });
    const runs = new RunsRepo(db, sessions, events);
    // A failed commit is reported to its waiters (and the rows' fallback); a read goes on.
    const commitQueued = () => {
      try {
        events.flush();
      } catch {
        // see above
      }
    };
    // Reads of journaled rows see those the writer thread holds (it is made below, once the journal is).
    let auditWriter: AuditWriter | null = null;
    const readJournaled = () => {
      auditWriter?.sync();
      commitQueued();
    };
    const actions = new ActionsRepo(db, readJournaled);
    const evidence = new SqliteEvidenceStore(db, readJournaled);
    const safety = new SafetyChecksRepo(db, readJournaled);
    const userCells = new UserCellsRepo(db, readJournaled);
    const kernels = new KernelsRepo(db);
    const permissions = new PermissionsRepo(db);
    const settings = new SettingsRepo(db);
    // Audit rows a dead process journaled but never committed go in before repair reads the groups.
    const applyJournal = (r: JournalRecord): void => applyJournalRecord({ actions, userCells, evidence, safety }, r);
    const auditReplay = lock.alone ? replayAuditJournals(file, (fn) => db.transaction(fn)(), applyJournal) : null;
    const repair = lock.alone ? repairOnOpen({ db, runs, events, actions, kernels, permissions }) : null;
    lock.share();
    const auditJournal = options.sync === 'full' ? null : new AuditJournal(newJournalFile(file));
    if (auditJournal && options.auditWriter !== false) {
      auditWriter = new AuditWriter({
        file,
        sqlite: sqliteOptions(),
        commitMs: options.events?.lazyCommitMs ?? LAZY_COMMIT_MS,
        commitMain: commitQueued,
        inTransaction: () => db.inTransaction,
        applyHere: applyJournal,
        commitLater: (record) => events.defer(() => applyJournal(record), 'turn'),
        ...options.auditWriter,
      });
    }
    const histories = new HistoryCache();
    const folds = new HistoryFolds(db, events);
    const checkpointer = options.checkpoints === false ? null : new Checkpointer(db, { sqlite: sqliteOptions(), ...options.checkpoints });
    let closed = false;
    const journaled = (records: JournalRecord[], write: () => void): Promise<void> => {
      if (!auditJournal) return events.defer(write, 'turn');
      const journal = auditJournal;
      const text = encodeJournal(records);
      // Rows that cannot be written: their records stay in the journal for the next open
      // (the caller was answered on them).
      const keep = (error: unknown) => {
        journal.keepForReplay();
        throw error;
      };
      // Committed by the writer thread when it serves (off the main thread), else by the next group commit here.
      const committed =
        auditWriter?.submit(text, records)?.catch(keep) ??
        events.defer(() => {
          try {
            write();
          } catch (error) {
            keep(error);
          }
        }, 'lazy');
      try {
        auditJournal.appendText(text, committed);
      } catch {
        return committed;
      }
      return Promise.resolve();
    };
    return {
      file,
      schemaVersion: opened.toVersion,
      backup: opened.backup,
      repair,
      auditReplay,
      auditJournal,
      auditWriter,
      db,
      sessions,
      runs,
      events,
      actions,
      kernels,
      permissions,
      settings,
      environments: new EnvironmentsRepo(db),
      provenance: { evidence, artifacts: new SqliteArtifactIndex(db), responses: new SqliteResponseCache(db) },
      memory: new MemoryRepo(db),
      archive: new ArchiveRepo(db),
      safety,
      userCells,
      compute: new ComputeJobsRepo(db),
      journaled,
      async recordUserCell(input, cellEvidence) {
        const ev = cellEvidence ? evidence.prepare(cellEvidence) : null;
        const cell = userCells.prepare({ ...input, evidenceId: ev?.id ?? null });
        const write = () => {
          ev?.write();
          cell.write();
        };
        await journaled(ev ? [ev.journal, cell.journal] : [cell.journal], write);
        return cell.record;
      },
      createSession: (title) => sessions.create(title),
      detail(sessionId) {
        const session = sessions.require(sessionId);
        return { session, runs: runs.listBySession(sessionId), lastSeq: events.lastSeqOf(sessionId) };
      },
      history(sessionId) {
        sessions.require(sessionId);
        return histories.history(sessionId, (afterSeq) => events.readFrom(sessionId, afterSeq), () => folds.storedState(sessionId));
      },
      folds,
      historiesHeld: () => histories.size,
      checkpointer,
      deleteSession(sessionId) {
        sessions.delete(sessionId);
        events.forget(sessionId);
        histories.forget(sessionId);
        folds.forget(sessionId);
      },
      close() {
        if (closed) return;
        closed = true;
        let committed = false;
        try {
          // The writer's rows first (what it could not commit joins the queue flushed next).
          auditWriter?.close();
          events.flush();
          committed = true;
        } finally {
          auditJournal?.close(committed);
          checkpointer?.close();
          db.close();
          lock.release();
        }
      },
    };
  } catch (error) {
    db.close();
    lock.release();
    throw error;
  }
}
