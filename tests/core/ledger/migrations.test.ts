import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/core/ledger/database';
import { EventLog } from '../../../src-main/core/ledger/eventLog';
import { RunsRepo } from '../../../src-main/core/ledger/runsRepo';
import { SessionsRepo } from '../../../src-main/core/ledger/sessionsRepo';
import { openLedger } from '../../../src-main/core/ledger/ledger';
import { MIGRATIONS, migrationChecksum } from '../../../src-main/core/ledger/migrations';
import { tempDir, track } from './support';

const latest = MIGRATIONS[MIGRATIONS.length - 1]!.version;

describe('ledger migrations', () => {
  it('builds the whole schema on an empty file, with WAL and synchronous=NORMAL (the default durability level, see durability.test.ts)', () => {
    const file = path.join(tempDir(), 'ledger.sqlite3');
    const l = track(openLedger(file));
    expect(l.schemaVersion).toBe(latest);
    expect(l.backup).toBeNull();
    expect(l.db.pragma('user_version', { simple: true })).toBe(latest);
    expect(l.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(l.db.pragma('synchronous', { simple: true })).toBe(1);
    const rows = l.db.prepare('SELECT version, name, checksum FROM schema_migrations ORDER BY version').all();
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name, checksum: migrationChecksum(m) })));
    const tables = l.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all();
    for (const t of ['sessions', 'runs', 'stream_events', 'action_groups', 'action_events', 'kernel_generations', 'permission_requests', 'settings']) {
      expect(tables).toContain(t);
    }
  });

  it('migrates a database of the previous version, keeping its data, after a backup', () => {
    const file = path.join(tempDir(), 'ledger.sqlite3');
    // The previous schema, written through the repositories that exist at that version.
    const { db } = openDatabase(file, { migrations: MIGRATIONS.slice(0, -1) });
    expect(db.pragma('user_version', { simple: true })).toBe(latest - 1);
    const sessions = new SessionsRepo(db);
    const events = new EventLog(db);
    const s = sessions.create('insulin');
    const runs = new RunsRepo(db, sessions, events);
    const { run } = runs.submit(s.id, 'mut-1', 'look up INS');
    runs.start(run.id, null, null);
    events.appendSync(s.id, run.id, { type: 'start', messageId: 'a1' });
    db.close();

    const l = track(openLedger(file));
    expect(l.schemaVersion).toBe(latest);
    expect(l.backup).not.toBeNull();
    const backup = new Database(l.backup!, { readonly: true });
    expect(backup.pragma('user_version', { simple: true })).toBe(latest - 1);
    expect(backup.prepare('SELECT COUNT(*) FROM stream_events').pluck().get()).toBe(2);
    backup.close();
    expect(l.sessions.list().map((x) => x.title)).toEqual(['insulin']);
    expect(l.history(s.id).messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const group = l.actions.begin({ sessionId: s.id, runId: run.id, kind: 'tool_batch', turn: 1, calls: [] });
    expect(l.actions.require(group).status).toBe('running');
  });

  it('refuses a database from a newer app and a changed migration', () => {
    const dir = tempDir();
    const newer = path.join(dir, 'newer.sqlite3');
    const raw = new Database(newer);
    raw.pragma(`user_version = ${latest + 1}`);
    raw.close();
    expect(() => openDatabase(newer)).toThrow(/newer than this app knows/);

    const changed = path.join(dir, 'changed.sqlite3');
    openDatabase(changed).db.close();
    const edited = MIGRATIONS.map((m, i) => (i === 0 ? { ...m, sql: `${m.sql}\n-- edited` } : m));
    expect(() => openDatabase(changed, { migrations: edited })).toThrow(/different migration 1/);
  });

  it('refuses to migrate a corrupt database and names the fix', () => {
    const file = path.join(tempDir(), 'ledger.sqlite3');
    const { db } = openDatabase(file, { migrations: MIGRATIONS.slice(0, 1) });
    const sessions = new SessionsRepo(db);
    for (let i = 0; i < 200; i++) sessions.create(`s${i}`.repeat(20));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    // Scribble over the middle of the file (past the header), as a failing disk would.
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, 4096 * 2);
    fs.closeSync(fd);
    expect(() => openLedger(file)).toThrow(/integrity check|malformed|not a database/);
  });
});
