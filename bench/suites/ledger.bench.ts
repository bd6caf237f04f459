import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openLedger, type Ledger } from '../../src-main/core/ledger/ledger';
import { fold } from '../../src-preload/contract/fold';
import type { StreamChunk } from '../../src-preload/contract/stream';
import { sessionChunks } from '../support/sessionChunks';
import type { BenchRow, BenchSuite } from '../types';

/**
 * The ledger's durable throughput (WAL + synchronous=FULL: every commit is fsynced), the
 * fold of a large session, and the database's size per chunk. Targets from issue 3.
 */

function withLedger<T>(fn: (l: Ledger, dir: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openai4s-bench-ledger-'));
  const l = openLedger(path.join(dir, 'ledger.sqlite3'));
  try {
    return fn(l, dir);
  } finally {
    l.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function groupCommitted(chunks: StreamChunk[]): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openai4s-bench-ledger-'));
  const l = openLedger(path.join(dir, 'ledger.sqlite3'));
  try {
    const s = l.createSession('bench');
    const t0 = performance.now();
    // A producer that streams chunks in bursts and awaits durability, as the engine does.
    const burst = 500;
    for (let i = 0; i < chunks.length; i += burst) {
      let last: Promise<void> = Promise.resolve();
      for (const chunk of chunks.slice(i, i + burst)) last = l.events.enqueue(s.id, null, chunk).durable;
      await last;
    }
    return chunks.length / ((performance.now() - t0) / 1000);
  } finally {
    l.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const suite: BenchSuite = {
  name: 'ledger',
  async run() {
    const rows: BenchRow[] = [];

    const single = withLedger((l) => {
      const s = l.createSession('bench');
      const chunks = sessionChunks(1_000);
      const t0 = performance.now();
      for (const chunk of chunks) l.events.appendSync(s.id, null, chunk);
      return chunks.length / ((performance.now() - t0) / 1000);
    });
    rows.push({ metric: 'internal layer: durable appends, one chunk per transaction (ledger alone)', value: Math.round(single), unit: 'chunks/s', target: 'reference system: 473/s' });

    const grouped = await groupCommitted(sessionChunks(100_000));
    rows.push({ metric: 'internal layer: durable appends, group-committed (ledger alone; the runner path is in streaming)', value: Math.round(grouped), unit: 'chunks/s', target: '>= 20,000/s', met: grouped >= 20_000 });

    const big = sessionChunks(100_000);
    fold(big.slice(0, 10_000));
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      fold(big);
      times.push(performance.now() - t0);
    }
    const foldMs = times.sort((a, b) => a - b)[2]!;
    rows.push({ metric: 'internal layer: fold of a 100k-chunk session, in memory (median of 5; end to end in openSession)', value: foldMs, unit: 'ms' });

    const { bytes, historyMs } = withLedger((l) => {
      const s = l.createSession('bench');
      const chunks = sessionChunks(10_000);
      const before = l.db.prepare('SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()').pluck().get() as number;
      l.db.transaction(() => {
        for (const chunk of chunks) l.events.enqueue(s.id, null, chunk);
        l.events.flush();
      })();
      l.db.pragma('wal_checkpoint(TRUNCATE)');
      const after = l.db.prepare('SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()').pluck().get() as number;
      const t0 = performance.now();
      l.history(s.id);
      return { bytes: after - before, historyMs: performance.now() - t0 };
    });
    rows.push({ metric: 'database bytes per 10k chunks', value: bytes, unit: 'bytes' });
    rows.push({ metric: 'internal layer: ledger.history (read + fold) of 10k chunks', value: historyMs, unit: 'ms' });
    return rows;
  },
};
export default suite;
