import type { Db } from './database';
import { nowIso } from './util';

/** App settings as JSON values by key (never secrets: keys go through safeStorage). */
export class SettingsRepo {
  private readonly q;

  constructor(db: Db) {
    this.q = {
      get: db.prepare('SELECT value_json FROM settings WHERE key = ?').pluck(),
      set: db.prepare(
        'INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at',
      ),
      remove: db.prepare('DELETE FROM settings WHERE key = ?'),
      all: db.prepare('SELECT key, value_json FROM settings ORDER BY key'),
    };
  }

  get<T = unknown>(key: string): T | undefined {
    const v = this.q.get.get(key) as string | undefined;
    return v === undefined ? undefined : (JSON.parse(v) as T);
  }

  set(key: string, value: unknown): void {
    if (value === undefined) throw new TypeError(`Setting "${key}": undefined is not a value; use remove() to clear it.`);
    this.q.set.run(key, JSON.stringify(value), nowIso());
  }

  remove(key: string): void {
    this.q.remove.run(key);
  }

  all(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const r of this.q.all.all() as { key: string; value_json: string }[]) out[r.key] = JSON.parse(r.value_json);
    return out;
  }
}
