/**
 * Runs `work` once the window has painted its first content and is then idle: for fetching
 * what the first paint does not need (the other views' chunks, the markdown renderer).
 * An idle callback alone is not enough: the first idle period can come before React's first
 * commit is painted, and on a slow start the chunks were then fetched and parsed before
 * the first paint, competing with it (the rendererPaint bench once counted 494 KB of script
 * requested before it, against 372 KB in other runs). If the window reports no paint
 * (hidden, or no paint timing), the work starts after `fallbackMs` anyway.
 */
export interface PaintHooks {
  painted(): boolean;
  /** Calls `onPaint` when the first contentful paint is reported; returns a stop function. */
  observe(onPaint: () => void): () => void;
  idle(work: () => void): void;
  setTimeout(work: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const FCP = 'first-contentful-paint';

export const browserPaintHooks: PaintHooks = {
  painted: () => performance.getEntriesByName(FCP).length > 0,
  observe(onPaint) {
    try {
      const observer = new PerformanceObserver((list) => {
        if (list.getEntriesByName(FCP).length) onPaint();
      });
      observer.observe({ type: 'paint', buffered: true });
      return () => observer.disconnect();
    } catch {
      // No paint timing here: the fallback starts the work.
      return () => {};
    }
  },
  idle: (work) => requestIdleCallback(work, { timeout: 3000 }),
  setTimeout: (work, ms) => setTimeout(work, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function afterFirstPaint(work: () => void, hooks: PaintHooks = browserPaintHooks, fallbackMs = 5000): void {
  let started = false;
  let stop = () => {};
  let timer: unknown = null;
  const start = () => {
    if (started) return;
    started = true;
    stop();
    if (timer !== null) hooks.clearTimeout(timer);
    hooks.idle(work);
  };
  if (hooks.painted()) return start();
  timer = hooks.setTimeout(start, fallbackMs);
  stop = hooks.observe(start);
  // The observer may have reported a buffered paint during `observe` (before `stop` was set).
  if (started) stop();
}
