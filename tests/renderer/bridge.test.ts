import { afterEach, describe, expect, it } from 'vitest';
import { bridge, BridgeError, createBridge, toErrorBody } from '../../src-renderer/src/api/bridge';
import { fakeBridgeApi, recordedReport } from './support';

describe('bridge facade', () => {
  afterEach(() => {
    delete (window as unknown as Record<string, unknown>).openai4s;
  });

  it('unwraps an ok envelope into its data and passes route and input through', async () => {
    const report = recordedReport();
    const api = fakeBridgeApi(() => ({ ok: true, data: report }));
    const b = createBridge(() => api);
    await expect(b.invoke('doctor.get', { refresh: true })).resolves.toEqual(report);
    expect(api.calls).toEqual([{ route: 'doctor.get', input: { refresh: true } }]);
  });

  it('throws an error envelope as a BridgeError with its code and message', async () => {
    const api = fakeBridgeApi(() => ({
      ok: false,
      error: {
        code: 'invalid_input',
        message: 'Invalid input for doctor.get: refresh: expected boolean',
      },
    }));
    const error = await createBridge(() => api)
      .invoke('doctor.get')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeError);
    expect(toErrorBody(error)).toEqual({
      code: 'invalid_input',
      message: 'Invalid input for doctor.get: refresh: expected boolean',
    });
  });

  it('names the problem when window.openai4s is missing', async () => {
    const error = await bridge.invoke('doctor.get').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeError);
    expect((error as BridgeError).code).toBe('unavailable');
    expect((error as BridgeError).message).toMatch(/window\.openai4s is missing/);
    expect(() => bridge.on('app.notice', () => {})).toThrow(/window\.openai4s is missing/);
  });

  it('reads window.openai4s at call time', async () => {
    (window as unknown as Record<string, unknown>).openai4s = fakeBridgeApi(() => ({
      ok: true,
      data: 'late',
    }));
    await expect(bridge.invoke('doctor.get')).resolves.toBe('late');
  });

  it('reports a failed transport as unavailable and a malformed answer as internal', async () => {
    const broken = createBridge(() => ({
      invoke: () => Promise.reject(new Error('IPC channel closed')),
      on: () => () => {},
    }));
    await expect(broken.invoke('doctor.get')).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining('IPC channel closed'),
    });
    const odd = createBridge(() => fakeBridgeApi(() => ({ hello: 1 }) as never));
    await expect(odd.invoke('doctor.get')).rejects.toMatchObject({ code: 'internal' });
  });

  it('delivers events to `on` listeners until unsubscribed', () => {
    const api = fakeBridgeApi(() => ({ ok: true, data: null }));
    const seen: unknown[] = [];
    const off = createBridge(() => api).on('app.notice', (n) => seen.push(n.message));
    api.emit('app.notice', { level: 'info', message: 'one' });
    api.emit('other.topic', { level: 'info', message: 'ignored' });
    off();
    api.emit('app.notice', { level: 'info', message: 'two' });
    expect(seen).toEqual(['one']);
    expect(api.listenerCount()).toBe(0);
  });
});
