import { describe, expect, it } from 'vitest';
import type { ArtifactSummary, Envelope } from '../../src-preload/contract';
import { BridgeError, createBridge } from '../../src-renderer/src/api/bridge';
import { createLoader, idle, type Loadable } from '../../src-renderer/src/store/loadable';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

/** A promise settled from outside, to answer loads in any order. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** One Loadable field held in a variable, written the way a slice writes its field. */
function field<T>(initial: Loadable<T>) {
  let value = initial;
  const seen: string[] = [];
  const load = createLoader<Loadable<T>>((change) => {
    value = change(value);
    seen.push(value.status);
  });
  return { load, seen, get: () => value };
}

describe('createLoader', () => {
  it('goes loading, then ready with the data', async () => {
    const f = field(idle<number[]>([]));
    await f.load(async () => [1, 2]);
    expect(f.seen).toEqual(['loading', 'ready']);
    expect(f.get()).toEqual({ status: 'ready', data: [1, 2], error: null });
  });

  it('keeps the last data under an error, with the error as {code, message}', async () => {
    const f = field(idle<number[]>([]));
    await f.load(async () => [7]);
    await f.load(async () => {
      throw new BridgeError('unavailable', 'main went away');
    });
    expect(f.get()).toEqual({
      status: 'error',
      data: [7],
      error: { code: 'unavailable', message: 'main went away' },
    });
    await f.load(async () => [8]);
    expect(f.get()).toEqual({ status: 'ready', data: [8], error: null });
  });

  it('drops the answer of a load that a newer one overtook, success or failure', async () => {
    const f = field(idle<string>('none'));
    const slow = deferred<string>();
    const slowFail = deferred<string>();
    const first = f.load(() => slow.promise);
    const second = f.load(() => slowFail.promise);
    const third = f.load(async () => 'newest');
    await third;
    slow.resolve('stale');
    slowFail.reject(new Error('stale failure'));
    await Promise.all([first, second]);
    expect(f.get()).toEqual({ status: 'ready', data: 'newest', error: null });
  });

  it('lets `start` replace what is shown while loading', async () => {
    const f = field(idle<number[]>([1]));
    const answer = deferred<number[]>();
    const done = f.load(() => answer.promise, (shown) => ({ ...shown, data: [] }));
    expect(f.get()).toEqual({ status: 'loading', data: [], error: null });
    answer.resolve([2]);
    await done;
    expect(f.get().data).toEqual([2]);
  });
});

describe('panel lists', () => {
  const artifact = (id: string) => ({ id, path: `${id}.csv` }) as unknown as ArtifactSummary;

  it('keep a session’s list on screen while it refreshes and start empty for another session', async () => {
    const answers = new Map<string, ReturnType<typeof deferred<Envelope<unknown>>>>();
    const api = fakeBridgeApi((route, input) => {
      const key = `${route}:${(input as { sessionId: string }).sessionId}`;
      const d = deferred<Envelope<unknown>>();
      answers.set(key, d);
      return d.promise;
    });
    const store = createAppStore({
      bridge: createBridge(() => api),
      storage: memoryStorage(),
      systemLanguages: ['en'],
    });
    const first = store.getState().loadArtifacts('s1');
    answers.get('artifact.list:s1')!.resolve({ ok: true, data: [artifact('a')] });
    await first;
    expect(store.getState().artifacts).toMatchObject({ status: 'ready', sessionId: 's1' });

    const refresh = store.getState().loadArtifacts('s1');
    expect(store.getState().artifacts).toMatchObject({ status: 'loading', sessionId: 's1', data: [artifact('a')] });
    const other = store.getState().loadArtifacts('s2');
    expect(store.getState().artifacts).toMatchObject({ status: 'loading', sessionId: 's2', data: [] });

    // The refresh of s1 answers after s2 was asked for: it must not show s1's list under s2.
    answers.get('artifact.list:s1')!.resolve({ ok: true, data: [artifact('a'), artifact('b')] });
    await refresh;
    expect(store.getState().artifacts).toMatchObject({ status: 'loading', sessionId: 's2', data: [] });
    answers.get('artifact.list:s2')!.resolve({ ok: true, data: [artifact('c')] });
    await other;
    expect(store.getState().artifacts).toMatchObject({ status: 'ready', sessionId: 's2', data: [artifact('c')] });
  });
});
