import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sqliteOptions } from '../config/sqlite';
import type { LedgerSync } from './durability';
import { MIGRATIONS, migrationChecksum, type Migration } from './migrations';

export type Db = Database.Database;

export interface OpenDatabaseOptions {
  /** The schema to reach; tests pass a prefix to build an older database. */
  migrations?: readonly Migration[];
  /** Where the pre-migration copy goes; defaults to `<file>.backup-v<from>-<timestamp>`. */
  backupPath?: (fromVersion: number) => string;
  /** How hard a commit waits for the disk (./durability.ts); default `normal`. */
  sync?: LedgerSync;
}

export interface OpenedDatabase {
  db: Db;
  /** The user_version before this open migrated it (0 for a new file). */
  fromVersion: number;
  toVersion: number;
  /** The copy taken before migrating an existing database, if any. */
  backup: string | null;
}

/**
 * Durability choices for the ledger (the contract is in ./README.md):
 *  - journal_mode=WAL: a commit appends to the write-ahead log instead of rewriting pages,
 *    readers never block the writer, and a torn write is detected and rolled back by the
 *    WAL checksums on the next open.
 *  - synchronous=NORMAL (default): a commit is in the WAL file (the OS's page cache) when
 *    it returns, so it survives a crash or kill -9 of the app; the WAL is fsynced at
 *    checkpoints, so an OS crash or power cut may roll back the last commits, never
 *    corrupt the file. FULL (OPENAI4S_LEDGER_SYNC=full) fsyncs every commit and also
 *    survives a power cut, at one fsync per transaction on the main thread.
 *  - foreign_keys=ON: runs, events and actions cannot point at nothing.
 * One connection per process writes (better-sqlite3 is synchronous; the ledger is the only
 * writer), except the audit writer thread's, which commits only a cell's journaled host-call
 * rows (auditWriter/auditWriter.ts), and the checkpointer's, which writes no row.
 */
function configure(db: Db, sync: LedgerSync): void {
  const mode = db.pragma('journal_mode = WAL', { simple: true });
  if (mode !== 'wal') throw new Error(`The ledger ${db.name} cannot use WAL journaling (got ${String(mode)}); keep the data dir on a local disk.`);
  db.pragma(`synchronous = ${sync === 'full' ? 'FULL' : 'NORMAL'}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
}

function integrityCheck(db: Db, file: string): void {
  const rows = db.pragma('integrity_check') as { integrity_check: string }[];
  const problems = rows.map((r) => r.integrity_check).filter((r) => r !== 'ok');
  if (problems.length) {
    throw new Error(
      `The ledger ${file} failed its integrity check (${problems.slice(0, 3).join('; ')}). ` +
        'Restore the newest ledger.sqlite3.backup-* next to it, or move the file away to start a new ledger.',
    );
  }
}

function verifyApplied(db: Db, file: string, migrations: readonly Migration[]): void {
  const applied = db.prepare('SELECT version, name, checksum FROM schema_migrations ORDER BY version').all() as {
    version: number;
    name: string;
    checksum: string;
  }[];
  for (const row of applied) {
    const known = migrations.find((m) => m.version === row.version);
    if (known && migrationChecksum(known) !== row.checksum) {
      throw new Error(
        `The ledger ${file} was built with a different migration ${row.version} ("${row.name}") than this version of the app. ` +
          'Use the app version that created it, or restore a backup.',
      );
    }
  }
}

/** Opens (creating if needed) the ledger file, checks it, backs it up, and migrates it. */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): OpenedDatabase {
  const migrations = options.migrations ?? MIGRATIONS;
  const target = migrations.length ? migrations[migrations.length - 1]!.version : 0;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file, sqliteOptions());
  try {
    configure(db, options.sync ?? 'normal');
    const fromVersion = db.pragma('user_version', { simple: true }) as number;
    if (fromVersion > target) {
      throw new Error(
        `The ledger ${file} has schema version ${fromVersion}, newer than this app knows (${target}). Update the app; do not open it with an older one.`,
      );
    }
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)`);
    verifyApplied(db, file, migrations);
    const pending = migrations.filter((m) => m.version > fromVersion);
    let backup: string | null = null;
    if (pending.length && fromVersion > 0) {
      integrityCheck(db, file);
      backup = options.backupPath?.(fromVersion) ?? `${file}.backup-v${fromVersion}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      // VACUUM INTO writes a consistent, compact copy through SQLite itself (the WAL included).
      db.prepare('VACUUM INTO ?').run(backup);
    }
    const record = db.prepare('INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)');
    for (const m of pending) {
      db.transaction(() => {
        db.exec(m.sql);
        record.run(m.version, m.name, migrationChecksum(m), new Date().toISOString());
        db.pragma(`user_version = ${m.version}`);
      }).immediate();
    }
    if (pending.length) {
      const violations = db.pragma('foreign_key_check') as unknown[];
      if (violations.length) throw new Error(`The ledger ${file} has ${violations.length} broken references after migrating; restore ${backup ?? 'a backup'}.`);
    }
    return { db, fromVersion, toVersion: Math.max(fromVersion, target), backup };
  } catch (error) {
    db.close();
    throw error;
  }
}
