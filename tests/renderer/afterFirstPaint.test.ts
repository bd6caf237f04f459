import { describe, expect, it } from 'vitest';
import { afterFirstPaint, type PaintHooks } from '../../src-renderer/src/afterFirstPaint';

/** Hooks whose paint, idle period and timer the test fires by hand. */
function fakeHooks(options: { painted?: boolean; paintDuringObserve?: boolean } = {}) {
  const log: string[] = [];
  let onPaint: (() => void) | null = null;
  let timer: (() => void) | null = null;
  let idleWork: (() => void) | null = null;
  const hooks: PaintHooks = {
    painted: () => options.painted ?? false,
    observe(cb) {
      log.push('observe');
      onPaint = cb;
      if (options.paintDuringObserve) cb();
      return () => {
        log.push('stop observing');
        onPaint = null;
      };
    },
    idle(work) {
      log.push('idle');
      idleWork = work;
    },
    setTimeout(work) {
      log.push('timer');
      timer = work;
      return 7;
    },
    clearTimeout(handle) {
      log.push(`clear timer ${String(handle)}`);
      timer = null;
    },
  };
  return { hooks, log, paint: () => onPaint?.(), fireTimer: () => timer?.(), runIdle: () => idleWork?.() };
}

describe('work that waits for the first paint', () => {
  it('does nothing before the first contentful paint, then runs once in the next idle period', () => {
    const f = fakeHooks();
    let runs = 0;
    afterFirstPaint(() => runs++, f.hooks);
    expect(f.log).toEqual(['timer', 'observe']);
    f.runIdle();
    expect(runs).toBe(0);
    f.paint();
    expect(f.log).toEqual(['timer', 'observe', 'stop observing', 'clear timer 7', 'idle']);
    f.runIdle();
    f.paint();
    f.fireTimer();
    expect(runs).toBe(1);
  });

  it('a window already painted goes straight to its idle period', () => {
    const f = fakeHooks({ painted: true });
    let runs = 0;
    afterFirstPaint(() => runs++, f.hooks);
    expect(f.log).toEqual(['idle']);
    f.runIdle();
    expect(runs).toBe(1);
  });

  it('a window that never reports a paint still gets the work, after the fallback', () => {
    const f = fakeHooks();
    let runs = 0;
    afterFirstPaint(() => runs++, f.hooks);
    f.fireTimer();
    f.runIdle();
    expect(runs).toBe(1);
    expect(f.log).toContain('stop observing');
    f.paint();
    expect(runs).toBe(1);
  });

  it('a paint the observer reports at once (buffered) runs the work once and stops the observer', () => {
    const f = fakeHooks({ paintDuringObserve: true });
    let runs = 0;
    afterFirstPaint(() => runs++, f.hooks);
    f.runIdle();
    expect(runs).toBe(1);
    expect(f.log.filter((l) => l === 'idle')).toHaveLength(1);
    expect(f.log.at(-1)).toBe('stop observing');
  });
});
