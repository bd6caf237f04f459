import { describe, expect, it } from 'vitest';
import { tempLedger } from './support';

describe('sessions.exists: the check before a cell’s records are written', () => {
  it('is true for a live session, false for an unknown or deleted one, and forgets a deleted one', () => {
    const l = tempLedger();
    const s = l.createSession('kept');
    const gone = l.createSession('deleted');
    expect(l.sessions.exists(s.id)).toBe(true);
    expect(l.sessions.exists(gone.id)).toBe(true);
    expect(l.sessions.exists('no-such-session')).toBe(false);
    expect(l.sessions.remembered).toBe(2);
    l.deleteSession(gone.id);
    expect(l.sessions.exists(gone.id)).toBe(false);
    expect(l.sessions.remembered).toBe(1);
    // Asked again, the live one is answered the same (from memory).
    expect(l.sessions.exists(s.id)).toBe(true);
  });
});
