/**
 * Collects items and hands them over at most once per animation frame: a model
 * streaming hundreds of deltas a second costs one fold and one render per frame.
 */
export type ScheduleFrame = (callback: () => void) => void;

export const animationFrame: ScheduleFrame = (callback) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => callback());
  else setTimeout(callback, 16);
};

export interface FrameBatcher<T> {
  push(item: T): void;
  /** Hands over what is pending now (used before a reload, so nothing is lost). */
  flush(): void;
}

export function createFrameBatcher<T>(
  deliver: (items: T[]) => void,
  schedule: ScheduleFrame = animationFrame,
): FrameBatcher<T> {
  let pending: T[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const items = pending;
    pending = [];
    deliver(items);
  };
  return {
    push(item) {
      pending.push(item);
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
    flush,
  };
}
