import { describe, expect, it, vi } from 'vitest';
import {
  createEventForwarder,
  MAX_SUBSCRIBED_TOPICS,
  parseSubscribedTopics,
  WindowSubscriptions,
} from '../../src-main/electron/topicFilter';
import { createTopicListeners } from '../../src-preload/topicListeners';

describe('parseSubscribedTopics', () => {
  it('accepts the list the preload sends, as a set', () => {
    expect(parseSubscribedTopics(['session.stream', 'app.notice'])).toEqual(new Set(['session.stream', 'app.notice']));
    expect(parseSubscribedTopics([])).toEqual(new Set());
  });

  it('refuses anything that is not a bounded list of topic names', () => {
    for (const bad of [undefined, null, 'session.stream', { 0: 'x' }, [1], [''], ['x'.repeat(129)], Array.from({ length: MAX_SUBSCRIBED_TOPICS + 1 }, (_, i) => `t${i}`)]) {
      expect(parseSubscribedTopics(bad)).toBeNull();
    }
  });
});

describe('WindowSubscriptions', () => {
  it('each message replaces what a window hears; windows are independent', () => {
    const subs = new WindowSubscriptions();
    expect(subs.set(1, ['session.stream', 'app.notice'])).toBe(true);
    subs.set(2, ['kernel.output']);
    expect(subs.hears(1, 'session.stream')).toBe(true);
    expect(subs.hears(1, 'kernel.output')).toBe(false);
    expect(subs.hears(2, 'kernel.output')).toBe(true);
    subs.set(1, ['app.notice']);
    expect(subs.hears(1, 'session.stream')).toBe(false);
    expect(subs.hears(1, 'app.notice')).toBe(true);
  });

  it('an empty list (a reload) and forget (closed) leave nothing behind', () => {
    const subs = new WindowSubscriptions();
    subs.set(1, ['session.stream']);
    subs.set(2, ['session.stream']);
    subs.set(1, []);
    subs.forget(2);
    expect(subs.hears(1, 'session.stream')).toBe(false);
    expect(subs.hears(2, 'session.stream')).toBe(false);
    expect(subs.size).toBe(0);
  });

  it('keeps the previous topics when a message is malformed', () => {
    const subs = new WindowSubscriptions();
    subs.set(1, ['session.stream']);
    expect(subs.set(1, 'everything')).toBe(false);
    expect(subs.hears(1, 'session.stream')).toBe(true);
  });
});

describe('createEventForwarder', () => {
  it('sends only the topics the current window hears, and counts emitted vs forwarded', () => {
    const subs = new WindowSubscriptions();
    const sent: [string, string, unknown][] = [];
    let target: { window: string; id: number } | null = { window: 'win-1', id: 1 };
    const forwarder = createEventForwarder({ subscriptions: subs, target: () => target, send: (w, t, p) => sent.push([w, t, p]) });
    forwarder.forward('session.stream', 'before subscribing');
    subs.set(1, ['session.stream']);
    forwarder.forward('session.stream', 'a');
    forwarder.forward('kernel.output', 'not heard');
    target = null;
    forwarder.forward('session.stream', 'no window');
    target = { window: 'win-2', id: 2 };
    forwarder.forward('session.stream', 'new window, not subscribed yet');
    expect(sent).toEqual([['win-1', 'session.stream', 'a']]);
    expect(forwarder.counts).toEqual({ emitted: 5, forwarded: 1 });
  });
});

describe('createTopicListeners (the preload side)', () => {
  it('reports the heard topics when the first listener of a topic comes and the last goes', () => {
    const changes: string[][] = [];
    const listeners = createTopicListeners((topics) => changes.push(topics));
    const offA = listeners.add('session.stream', () => {});
    const offB = listeners.add('session.stream', () => {});
    const offN = listeners.add('app.notice', () => {});
    offA();
    offA(); // twice is once
    expect(changes).toEqual([['session.stream'], ['session.stream', 'app.notice']]);
    offB();
    offN();
    expect(changes.slice(2)).toEqual([['app.notice'], []]);
    expect(listeners.topics()).toEqual([]);
  });

  it('counts the same callback added twice as two listeners', () => {
    const changes: string[][] = [];
    const listeners = createTopicListeners((topics) => changes.push(topics));
    const seen: unknown[] = [];
    const cb = (p: unknown) => seen.push(p);
    const off1 = listeners.add('session.stream', cb);
    const off2 = listeners.add('session.stream', cb);
    listeners.dispatch('session.stream', 1);
    off1();
    listeners.dispatch('session.stream', 2);
    expect(seen).toEqual([1, 1, 2]);
    expect(changes).toEqual([['session.stream']]);
    off2();
    expect(changes).toEqual([['session.stream'], []]);
  });

  it('delivers to the topic only, and a throwing listener does not stop the others', () => {
    const listeners = createTopicListeners(() => {});
    const seen: unknown[] = [];
    listeners.add('session.stream', () => {
      throw new Error('broken view');
    });
    listeners.add('session.stream', (p) => seen.push(p));
    listeners.add('app.notice', () => seen.push('wrong topic'));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      listeners.dispatch('session.stream', 'chunk');
      expect(logged).toHaveBeenCalledTimes(1);
    } finally {
      logged.mockRestore();
    }
    expect(seen).toEqual(['chunk']);
  });

  it('refuses a listener without a topic name or a function', () => {
    const listeners = createTopicListeners(() => {});
    expect(() => listeners.add(42 as unknown as string, () => {})).toThrow(/topic name and a function/);
    expect(() => listeners.add('app.notice', null as unknown as () => void)).toThrow(/topic name and a function/);
  });
});
