import { describe, expect, it, vi } from 'vitest';
import {
  EVENT_CHANNEL,
  INVOKE_CHANNEL,
  SUBSCRIPTIONS_CHANNEL,
  type BridgeApi,
} from '../../src-preload/contract/events';

// The preload against a fake `electron`: contextBridge and ipcRenderer only. Hoisted,
// because vi.mock is hoisted above the imports.
const { contextBridge, exposed, ipcRenderer } = await vi.hoisted(async () => {
  const { EventEmitter } = await import('node:events');
  const exposed = new Map<string, unknown>();
  return {
    exposed,
    ipcRenderer: Object.assign(new EventEmitter(), {
      invoke: vi.fn(async (..._args: unknown[]) => ({ ok: true, data: 'answer' })),
      send: vi.fn((..._args: unknown[]) => undefined),
    }),
    contextBridge: {
      exposeInMainWorld: vi.fn((key: string, api: unknown) => {
        exposed.set(key, api);
      }),
    },
  };
});
vi.mock('electron', () => ({ contextBridge, ipcRenderer }));

await import('../../src-preload/index');
const api = exposed.get('openai4s') as BridgeApi;

// What the preload sent when it loaded, before any test subscribes.
const sentAtLoad = [...ipcRenderer.send.mock.calls];

describe('preload bridge', () => {
  it('exposes exactly window.openai4s = {invoke, on}, frozen', () => {
    expect(contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
    expect([...exposed.keys()]).toEqual(['openai4s']);
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('funnels invoke through the one invoke channel', async () => {
    await expect(api.invoke('doctor.get', { refresh: true })).resolves.toEqual({
      ok: true,
      data: 'answer',
    });
    expect(ipcRenderer.invoke).toHaveBeenCalledWith(INVOKE_CHANNEL, 'doctor.get', {
      refresh: true,
    });
  });

  it('delivers only the subscribed topic and unsubscribes', () => {
    const seen: unknown[] = [];
    const off = api.on('app.notice', (payload) => seen.push(payload));
    ipcRenderer.emit(EVENT_CHANNEL, {}, 'app.notice', { message: 'one' });
    ipcRenderer.emit(EVENT_CHANNEL, {}, 'run.chunk', { message: 'other topic' });
    off();
    ipcRenderer.emit(EVENT_CHANNEL, {}, 'app.notice', { message: 'after unsubscribe' });
    expect(seen).toEqual([{ message: 'one' }]);
    expect(ipcRenderer.listenerCount(EVENT_CHANNEL)).toBe(0);
  });

  it('resets main\'s topics for this window when the document loads', () => {
    expect(sentAtLoad).toEqual([[SUBSCRIPTIONS_CHANNEL, []]]);
  });

  it('tells main the heard topics when they change, and listens to events only meanwhile', () => {
    ipcRenderer.send.mockClear();
    const offStream1 = api.on('session.stream', () => {});
    const offStream2 = api.on('session.stream', () => {});
    const offNotice = api.on('app.notice', () => {});
    expect(ipcRenderer.listenerCount(EVENT_CHANNEL)).toBe(1);
    offStream1();
    offStream2();
    offNotice();
    expect(ipcRenderer.send.mock.calls).toEqual([
      [SUBSCRIPTIONS_CHANNEL, ['session.stream']],
      [SUBSCRIPTIONS_CHANNEL, ['session.stream', 'app.notice']],
      [SUBSCRIPTIONS_CHANNEL, ['app.notice']],
      [SUBSCRIPTIONS_CHANNEL, []],
    ]);
    expect(ipcRenderer.listenerCount(EVENT_CHANNEL)).toBe(0);
  });
});
