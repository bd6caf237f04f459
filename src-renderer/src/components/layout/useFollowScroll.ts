import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** How close to the bottom (px) still counts as being at the end. */
const FOLLOW_SLACK = 80;
/** How long after a wheel, touch, key or pointer press a scroll counts as the user's own (ms). */
const INTENT_MS = 800;

export interface FollowScroll {
  scroller: RefObject<HTMLDivElement | null>;
  inner: RefObject<HTMLDivElement | null>;
  atEnd: boolean;
  toEnd(smooth?: boolean): void;
  /** Spread on the scroller element. */
  handlers: {
    onScroll(): void;
    onWheel(): void;
    onTouchStart(): void;
    onKeyDown(): void;
    onPointerDown(): void;
  };
}

/**
 * A conversation's scrolling: it opens at its end, follows what streams in while the user
 * is at the end, and stays where the user scrolled to otherwise. A scroll the user made
 * (wheel, touch, keys, scrollbar, or any that came without a change of size) stops
 * following; a scroll the layout caused (the window shrinking, lazily rendered messages
 * taking their height, scroll anchoring) keeps a following view pinned to the end. `sessionKey`/`ready` open a session at its end,
 * `sentKey` changing brings a just-sent message into view, `messages` are the content.
 */
export function useFollowScroll(
  sessionKey: string | undefined,
  ready: boolean,
  sentKey: string,
  messages: readonly { id: string }[] | undefined,
): FollowScroll {
  const scroller = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const intentUntil = useRef(0);
  /** The scroller's sizes when last seen: a scroll that comes with a size change was caused by the layout. */
  const seen = useRef({ height: 0, client: 0 });
  const sizesChanged = (el: HTMLElement) => {
    const changed =
      el.scrollHeight !== seen.current.height || el.clientHeight !== seen.current.client;
    seen.current = { height: el.scrollHeight, client: el.clientHeight };
    return changed;
  };
  const [atEnd, setAtEnd] = useState(true);

  const toEnd = useCallback((smooth = false) => {
    const el = scroller.current;
    if (!el) return;
    following.current = true;
    setAtEnd(true);
    // A jump the user asked for glides; opening and sending land at once.
    if (smooth) el.scrollTo({ top: el.scrollHeight, behavior: 'smooth' });
    else el.scrollTop = el.scrollHeight;
  }, []);

  useLayoutEffect(() => {
    if (ready) toEnd();
  }, [sessionKey, ready, toEnd]);

  const sentRef = useRef(sentKey);
  useLayoutEffect(() => {
    if (sentRef.current !== sentKey && sentRef.current !== '') toEnd();
    sentRef.current = sentKey;
  }, [sentKey, toEnd]);

  // Earlier messages put in front (a session opened at its end loads its history after) must
  // not move what a reader who scrolled up is reading: the view moves down by what was put in
  // front. Measured from the scroll position last seen, so a shift the browser's scroll
  // anchoring already made is not made twice.
  const lastTop = useRef(0);
  const head = useRef<{ id: string | undefined; pos: number }>({ id: undefined, pos: 0 });
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const firstId = messages?.[0]?.id;
    /** Where a message starts in the scrolled content (independent of the scroll position). */
    const posOf = (id: string | undefined) => {
      const node = id === undefined ? undefined : [...el.querySelectorAll('[data-message-id]')].find((n) => n.getAttribute('data-message-id') === id);
      return node ? node.getBoundingClientRect().top - el.getBoundingClientRect().top + el.scrollTop : null;
    };
    if (following.current) el.scrollTop = el.scrollHeight;
    else if (head.current.id !== undefined && firstId !== head.current.id) {
      const pos = posOf(head.current.id);
      if (pos !== null) el.scrollTop = lastTop.current + (pos - head.current.pos);
    }
    lastTop.current = el.scrollTop;
    head.current = { id: firstId, pos: posOf(firstId) ?? 0 };
  }, [messages]);

  // Content growing after it rendered (figures, markdown, lazily rendered messages) and the
  // scroller itself shrinking (a smaller window, a taller composer) keep a following view at the end.
  useEffect(() => {
    const el = scroller.current;
    const body = inner.current;
    if (!el || !body || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => {
      if (following.current) el.scrollTop = el.scrollHeight;
      sizesChanged(el);
    });
    observer.observe(body);
    observer.observe(el);
    return () => observer.disconnect();
  }, [sessionKey]);

  const intent = useCallback(() => {
    intentUntil.current = performance.now() + INTENT_MS;
  }, []);
  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    lastTop.current = el.scrollTop;
    const layoutMoved = sizesChanged(el);
    if (el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_SLACK) {
      following.current = true;
      setAtEnd(true);
    } else if (performance.now() < intentUntil.current || !layoutMoved) {
      // The user's scroll (or a deliberate one that changed nothing else): stay where it went.
      following.current = false;
      setAtEnd(false);
    } else if (following.current) {
      el.scrollTop = el.scrollHeight;
    } else {
      setAtEnd(false);
    }
  }, []);

  return {
    scroller,
    inner,
    atEnd,
    toEnd,
    handlers: {
      onScroll,
      onWheel: intent,
      onTouchStart: intent,
      onKeyDown: intent,
      onPointerDown: intent,
    },
  };
}
