/**
 * Which event topics each window hears, and the forwarder that sends a core event only
 * to a window that hears its topic. Pure (no `electron` import): the Electron glue keys
 * windows by webContents id, the e2e harness by its page, and both forward through this.
 *
 * A window's topics come from its preload as the whole list (SUBSCRIPTIONS_CHANNEL), so
 * each message replaces the previous one; a reload starts with `[]`.
 */

/** More topics than the contract will ever have; a longer list is not a real bridge. */
export const MAX_SUBSCRIBED_TOPICS = 64;
const MAX_TOPIC_LENGTH = 128;

export const MALFORMED_SUBSCRIPTIONS =
  `a subscriptions message must be an array of at most ${MAX_SUBSCRIBED_TOPICS} topic names ` +
  `(strings of 1-${MAX_TOPIC_LENGTH} characters), as the preload sends; the message was ignored`;

/** The topic set of a subscriptions message, or null when the message is malformed. */
export function parseSubscribedTopics(message: unknown): ReadonlySet<string> | null {
  if (!Array.isArray(message) || message.length > MAX_SUBSCRIBED_TOPICS) return null;
  const ok = message.every((t) => typeof t === 'string' && t.length > 0 && t.length <= MAX_TOPIC_LENGTH);
  return ok ? new Set(message as string[]) : null;
}

export class WindowSubscriptions {
  private readonly byWindow = new Map<number, ReadonlySet<string>>();

  /** Replaces what the window hears; false (and nothing changed) when malformed. */
  set(windowId: number, message: unknown): boolean {
    const topics = parseSubscribedTopics(message);
    if (!topics) return false;
    if (topics.size === 0) this.byWindow.delete(windowId);
    else this.byWindow.set(windowId, topics);
    return true;
  }

  /** The window closed or its renderer is gone: it hears nothing any more. */
  forget(windowId: number): void {
    this.byWindow.delete(windowId);
  }

  hears(windowId: number, topic: string): boolean {
    return this.byWindow.get(windowId)?.has(topic) ?? false;
  }

  /** Windows that hear at least one topic (for leak checks). */
  get size(): number {
    return this.byWindow.size;
  }
}

export interface ForwardCounts {
  /** Events the core emitted while the forwarder was attached. */
  emitted: number;
  /** Of those, the ones sent to the window (its topic was heard). */
  forwarded: number;
}

export interface EventForwarder {
  /** Attach to the core's bus: `core.events.onAny(forwarder.forward)`. */
  forward(topic: string, payload: unknown): void;
  readonly counts: Readonly<ForwardCounts>;
}

/**
 * Sends each event to the current target window if it hears the topic. `target` is
 * asked per event (the app window can close and reopen); null means no window.
 */
export function createEventForwarder<T>(options: {
  subscriptions: WindowSubscriptions;
  target: () => { window: T; id: number } | null;
  send: (window: T, topic: string, payload: unknown) => void;
}): EventForwarder {
  const counts: ForwardCounts = { emitted: 0, forwarded: 0 };
  return {
    counts,
    forward(topic, payload) {
      counts.emitted++;
      const target = options.target();
      if (!target || !options.subscriptions.hears(target.id, topic)) return;
      counts.forwarded++;
      options.send(target.window, topic, payload);
    },
  };
}
