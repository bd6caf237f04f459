import { describe, expect, it } from 'vitest';
import { timeOrderedId } from '../../../src-main/core/ledger/timeOrderedId';
import { quietReview, recordTrivialCell } from './fixtures/userCellShapes';
import { tempLedger } from './support';

describe('time-ordered ids (the audit rows of a burst of host calls)', () => {
  it('are UUIDs of version 7 and the RFC variant', () => {
    for (let i = 0; i < 100; i++) expect(timeOrderedId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('sort as text in the order they were made, within one millisecond too, and never repeat', () => {
    const ids = Array.from({ length: 10_000 }, () => timeOrderedId(1_700_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keep their order when the clock steps back', () => {
    const a = timeOrderedId(1_800_000_000_000);
    const b = timeOrderedId(1_799_999_999_000);
    expect(b > a).toBe(true);
  });

  it('carry their creation time in the first 48 bits', () => {
    const id = timeOrderedId(1_900_000_000_123);
    expect(parseInt(id.replace('-', '').slice(0, 12), 16)).toBeGreaterThanOrEqual(1_900_000_000_123);
  });
});

describe('the rows every user cell adds get time-ordered keys (each insert lands at the end of the key index)', () => {
  it('a session’s review rows, cell versions and new cell keys sort in the order they were made', async () => {
    const ledger = tempLedger();
    const { id: sessionId } = ledger.createSession('cells');
    const checks: string[] = [];
    const cells: { id: string; cellKey: string }[] = [];
    for (let n = 1; n <= 50; n++) {
      const check = ledger.safety.prepare(quietReview(sessionId));
      await ledger.journaled([check.journal], check.write);
      checks.push(check.record.id);
      cells.push(await recordTrivialCell(ledger, sessionId, n));
    }
    const sorted = (ids: string[]) => [...ids].sort();
    expect(checks.every((id) => id.startsWith('sc_'))).toBe(true);
    expect(sorted(checks)).toEqual(checks);
    expect(sorted(cells.map((c) => c.id))).toEqual(cells.map((c) => c.id));
    expect(sorted(cells.map((c) => c.cellKey))).toEqual(cells.map((c) => c.cellKey));
    // A new cell's key still passes the contract's check (kernel.execute's cellKey).
    for (const { cellKey } of cells) expect(cellKey).toMatch(/^uc_[A-Za-z0-9-]{1,64}$/);
  });
});
