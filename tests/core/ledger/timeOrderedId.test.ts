import { describe, expect, it } from 'vitest';
import { timeOrderedId } from '../../../src-main/core/ledger/timeOrderedId';

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
