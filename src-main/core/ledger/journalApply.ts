import type { JournalRecord } from './auditJournal';
import type { ActionsRepo } from './actionsRepo';
import type { SqliteEvidenceStore } from './evidenceRepo';
import type { SafetyChecksRepo } from './safetyChecksRepo';
import type { UserCellsRepo } from './userCellsRepo';

/** The repositories a journal record's rows go to (the main connection's, or the writer thread's). */
export interface JournalTargets {
  actions: Pick<ActionsRepo, 'applyRecord'>;
  userCells: Pick<UserCellsRepo, 'applyJournal'>;
  evidence: Pick<SqliteEvidenceStore, 'applyJournal'>;
  safety: Pick<SafetyChecksRepo, 'applyJournal'>;
}

/**
 * Writes one journal record's rows (replay at open, the audit writer thread, a read that
 * must see them now). Idempotent: every kind inserts "if new", so a record applied twice
 * (on the main connection inside a transaction, then by the writer) is applied once.
 */
export function applyJournalRecord(targets: JournalTargets, record: JournalRecord): void {
  if (record.k === 'user_cell') targets.userCells.applyJournal(record);
  else if (record.k === 'evidence') targets.evidence.applyJournal(record);
  else if (record.k === 'safety_check') targets.safety.applyJournal(record);
  else targets.actions.applyRecord(record);
}
