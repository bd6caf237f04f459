import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../src-preload/contract';
import {
  initialSessionsState,
  sessionsReducer,
  visibleSessions,
} from '../../src-renderer/src/store/sessionsReducer';
import { createFrameBatcher } from '../../src-renderer/src/store/frameBatcher';

const session = (id: string, title: string, updatedAt: string): SessionSummary => ({
  id,
  title,
  createdAt: updatedAt,
  updatedAt,
  revision: 1,
});

describe('sessions reducer', () => {
  const loaded = sessionsReducer(initialSessionsState, {
    type: 'sessions/loaded',
    items: [
      session('a', 'Insulin structure', '2025-01-01T00:00:00Z'),
      session('b', 'ＣＲＩＳＰＲ screen', '2025-02-01T00:00:00Z'),
    ],
  });

  it('lists newest first and searches titles case- and width-insensitively', () => {
    expect(loaded.items.map((s) => s.id)).toEqual(['b', 'a']);
    expect(
      visibleSessions(sessionsReducer(loaded, { type: 'sessions/query', query: 'crispr' })).map(
        (s) => s.id,
      ),
    ).toEqual(['b']);
    expect(
      visibleSessions(sessionsReducer(loaded, { type: 'sessions/query', query: '  INSULIN ' })).map(
        (s) => s.id,
      ),
    ).toEqual(['a']);
  });

  it('renames in place, removes the active session and its badge', () => {
    let s = sessionsReducer(loaded, { type: 'sessions/selected', sessionId: 'a' });
    s = sessionsReducer(s, {
      type: 'sessions/activity',
      sessionId: 'a',
      state: { active: 'r1', queued: ['r2'] },
    });
    expect(s.activity.a).toEqual({ running: true, queued: 1 });
    s = sessionsReducer(s, {
      type: 'sessions/upserted',
      session: session('a', 'Renamed', '2025-03-01T00:00:00Z'),
    });
    expect(s.items.map((x) => x.title)).toEqual(['Renamed', 'ＣＲＩＳＰＲ screen']);
    s = sessionsReducer(s, { type: 'sessions/removed', sessionId: 'a' });
    expect(s.activeId).toBeNull();
    expect(s.activity.a).toBeUndefined();
    expect(s.items.map((x) => x.id)).toEqual(['b']);
  });

  it('keeps the same state when a badge does not change (no re-render)', () => {
    const s = sessionsReducer(loaded, {
      type: 'sessions/activity',
      sessionId: 'a',
      state: { active: null, queued: [] },
    });
    expect(
      sessionsReducer(s, {
        type: 'sessions/activity',
        sessionId: 'a',
        state: { active: null, queued: [] },
      }),
    ).toBe(s);
  });
});

describe('frame batcher', () => {
  it('delivers everything pushed within one frame at once, in order', () => {
    const frames: (() => void)[] = [];
    const delivered: number[][] = [];
    const b = createFrameBatcher<number>(
      (items) => delivered.push(items),
      (cb) => frames.push(cb),
    );
    b.push(1);
    b.push(2);
    b.push(3);
    expect(frames).toHaveLength(1);
    expect(delivered).toEqual([]);
    frames.shift()!();
    b.push(4);
    frames.shift()!();
    expect(delivered).toEqual([[1, 2, 3], [4]]);
  });
});
