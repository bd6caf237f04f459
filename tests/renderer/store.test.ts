import { describe, expect, it } from 'vitest';
import { createBridge } from '../../src-renderer/src/api/bridge';
import { LANGUAGE_STORAGE_KEY } from '../../src-renderer/src/i18n/language';
import {
  doctorReducer,
  initialDoctorState,
  type DoctorState,
} from '../../src-renderer/src/store/doctorReducer';
import {
  initialNoticesState,
  MAX_NOTICES,
  noticesReducer,
} from '../../src-renderer/src/store/noticesReducer';
import { connectEvents, createAppStore } from '../../src-renderer/src/store/store';
import type { Envelope } from '../../src-preload/contract';
import { fakeBridgeApi, memoryStorage, recordedReport } from './support';

const report = recordedReport();
const failure = {
  code: 'internal' as const,
  message: 'Internal error in doctor.get: spawn EACCES',
};

describe('doctorReducer', () => {
  it('goes idle -> loading -> ready', () => {
    const loading = doctorReducer(initialDoctorState, { type: 'doctor/requested', requestId: 1 });
    expect(loading).toEqual({ status: 'loading', report: null, error: null, requestId: 1 });
    const ready = doctorReducer(loading, { type: 'doctor/loaded', requestId: 1, report });
    expect(ready).toEqual({ status: 'ready', report, error: null, requestId: 1 });
  });

  it('keeps the last report through a refresh and under a later error', () => {
    const ready: DoctorState = { status: 'ready', report, error: null, requestId: 1 };
    const refreshing = doctorReducer(ready, { type: 'doctor/requested', requestId: 2 });
    expect(refreshing.report).toBe(report);
    const failed = doctorReducer(refreshing, {
      type: 'doctor/failed',
      requestId: 2,
      error: failure,
    });
    expect(failed).toEqual({ status: 'error', report, error: failure, requestId: 2 });
    // A new request clears the error.
    expect(doctorReducer(failed, { type: 'doctor/requested', requestId: 3 }).error).toBeNull();
  });

  it('ignores answers to a superseded request and requests that are not newer', () => {
    const second = doctorReducer(
      doctorReducer(initialDoctorState, { type: 'doctor/requested', requestId: 1 }),
      {
        type: 'doctor/requested',
        requestId: 2,
      },
    );
    expect(doctorReducer(second, { type: 'doctor/loaded', requestId: 1, report })).toBe(second);
    expect(doctorReducer(second, { type: 'doctor/failed', requestId: 1, error: failure })).toBe(
      second,
    );
    expect(doctorReducer(second, { type: 'doctor/requested', requestId: 2 })).toBe(second);
  });

  it('never mutates the state it is given', () => {
    const state = Object.freeze({ ...initialDoctorState });
    expect(() => doctorReducer(state, { type: 'doctor/requested', requestId: 1 })).not.toThrow();
    expect(state).toEqual(initialDoctorState);
  });
});

describe('noticesReducer', () => {
  it('numbers notices, keeps only the newest few and dismisses by id', () => {
    let state = initialNoticesState;
    for (let i = 1; i <= MAX_NOTICES + 2; i++) {
      state = noticesReducer(state, {
        type: 'notice/received',
        notice: { level: 'info', message: `n${i}` },
      });
    }
    expect(state.items.map((n) => n.message)).toEqual(['n3', 'n4', 'n5', 'n6', 'n7']);
    expect(state.items.map((n) => n.id)).toEqual([3, 4, 5, 6, 7]);
    const after = noticesReducer(state, { type: 'notice/dismissed', id: 5 });
    expect(after.items.map((n) => n.id)).toEqual([3, 4, 6, 7]);
    expect(noticesReducer(after, { type: 'notice/dismissed', id: 5 })).toBe(after);
  });
});

describe('app store', () => {
  function setup(
    answer: (route: string, input: unknown) => Envelope<unknown> | Promise<Envelope<unknown>>,
    opts: { saved?: string; langs?: string[] } = {},
  ) {
    const api = fakeBridgeApi(answer);
    const storage = memoryStorage(opts.saved ? { [LANGUAGE_STORAGE_KEY]: opts.saved } : {});
    const bridge = createBridge(() => api);
    const store = createAppStore({ bridge, storage, systemLanguages: opts.langs ?? ['en-US'] });
    return { api, storage, bridge, store };
  }

  it('starts in the language chosen from storage and system, and persists a switch', () => {
    expect(
      setup(() => ({ ok: true, data: null }), { langs: ['zh-CN'] }).store.getState().language,
    ).toBe('zh-CN');
    expect(
      setup(() => ({ ok: true, data: null }), { langs: ['zh-CN'], saved: 'en' }).store.getState()
        .language,
    ).toBe('en');
    const { store, storage } = setup(() => ({ ok: true, data: null }));
    expect(store.getState().language).toBe('en');
    store.getState().setLanguage('zh-CN');
    expect(store.getState().language).toBe('zh-CN');
    expect(storage.data.get(LANGUAGE_STORAGE_KEY)).toBe('zh-CN');
  });

  it('still switches language when storage throws', () => {
    const api = fakeBridgeApi(() => ({ ok: true, data: null }));
    const storage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    const store = createAppStore({
      bridge: createBridge(() => api),
      storage,
      systemLanguages: ['zh-CN'],
    });
    expect(store.getState().language).toBe('zh-CN');
    store.getState().setLanguage('en');
    expect(store.getState().language).toBe('en');
  });

  it('loads the doctor report through doctor.get, and asks for a fresh probe on refresh', async () => {
    const { store, api } = setup(() => ({ ok: true, data: report }));
    const pending = store.getState().loadDoctor();
    expect(store.getState().doctor.status).toBe('loading');
    await pending;
    expect(store.getState().doctor).toMatchObject({ status: 'ready', report, error: null });
    await store.getState().loadDoctor(true);
    expect(api.calls).toEqual([
      { route: 'doctor.get', input: {} },
      { route: 'doctor.get', input: { refresh: true } },
    ]);
  });

  it('stores an error envelope as {code, message}', async () => {
    const { store } = setup(() => ({ ok: false, error: failure }));
    await store.getState().loadDoctor();
    expect(store.getState().doctor).toMatchObject({
      status: 'error',
      report: null,
      error: failure,
    });
  });

  it('keeps the newest answer when an older, slower request finishes last', async () => {
    const releases: Array<() => void> = [];
    const older = { ...report, generatedAt: '2020-01-01T00:00:00.000Z' };
    let n = 0;
    const { store } = setup(
      () =>
        new Promise<Envelope<unknown>>((resolve) => {
          const data = n++ === 0 ? older : report;
          releases.push(() => resolve({ ok: true, data }));
        }),
    );
    const first = store.getState().loadDoctor();
    const second = store.getState().loadDoctor(true);
    releases[1]!();
    await second;
    releases[0]!();
    await first;
    expect(store.getState().doctor.report?.generatedAt).toBe(report.generatedAt);
  });

  it('turns app.notice events into notices and stops on unsubscribe', () => {
    const { store, api, bridge } = setup(() => ({ ok: true, data: null }));
    const off = connectEvents(store, bridge);
    api.emit('app.notice', { level: 'warning', message: 'R not found' });
    expect(store.getState().notices.items).toEqual([
      { id: 1, level: 'warning', message: 'R not found' },
    ]);
    off();
    api.emit('app.notice', { level: 'info', message: 'late' });
    expect(store.getState().notices.items).toHaveLength(1);
  });
});
