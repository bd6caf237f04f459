import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { route } from '../../src-preload/contract/define';
import { EVENT_CHANNEL, INVOKE_CHANNEL, SUBSCRIPTIONS_CHANNEL } from '../../src-preload/contract/events';
import { WindowSubscriptions } from '../../src-main/electron/topicFilter';
import { defineHandlers } from '../../src-main/core/api/defineHandlers';
import { createRouter } from '../../src-main/core/api/router';
import {
  createFakeElectron,
  FakeWebContents,
  invokeEvent,
  type FakeElectron,
} from './fakeElectron';

vi.mock('electron', () => createFakeElectron());

const { bindRouterToIpc, bindSubscriptionsToIpc, callerOf, isTrustedCaller, sendEvent } =
  await import('../../src-main/electron/ipc');

const routes = {
  'ping.get': route<{ pong: true; windowId: number | undefined }>()(z.object({}).strict()),
};

let electron: FakeElectron;
let served: number;

beforeEach(async () => {
  electron = (await import('electron')) as unknown as FakeElectron;
  electron.ipcMain.invokeHandlers.clear();
  served = 0;
  const handlers = defineHandlers<typeof routes>()({
    'ping.get': (_input, caller) => {
      served += 1;
      return { pong: true, windowId: caller.windowId };
    },
  });
  const router = createRouter(routes, handlers, { checkSender: isTrustedCaller });
  bindRouterToIpc(electron.ipcMain as never, router);
});

const call = (event: unknown, routeName: unknown, input: unknown = {}) =>
  electron.ipcMain.invoke(INVOKE_CHANNEL, event, routeName, input);

describe('callerOf', () => {
  it('describes the main frame of our app:// window', () => {
    const sender = new FakeWebContents('app://openai4s/index.html#/system');
    expect(callerOf(invokeEvent(sender) as never)).toEqual({
      origin: 'app://openai4s',
      isMainFrame: true,
      windowId: sender.id,
    });
  });

  it('tells an iframe from the main frame even at the same origin', () => {
    const sender = new FakeWebContents();
    const iframe = { url: 'app://openai4s/embedded.html' };
    expect(callerOf(invokeEvent(sender, iframe) as never)).toMatchObject({
      origin: 'app://openai4s',
      isMainFrame: false,
    });
  });

  it('treats a null or destroyed sender frame as nobody, without throwing', () => {
    const sender = new FakeWebContents();
    expect(callerOf(invokeEvent(sender, null) as never)).toMatchObject({
      origin: '',
      isMainFrame: false,
    });
    const disposed = invokeEvent(sender, () => {
      throw new Error('Render frame was disposed before WebFrameMain could be accessed');
    });
    expect(callerOf(disposed as never)).toEqual({ origin: '', isMainFrame: false });
  });

  it('gives an unparsable frame URL no origin', () => {
    const sender = new FakeWebContents('not a url');
    expect(callerOf(invokeEvent(sender) as never)).toMatchObject({ origin: '', isMainFrame: true });
  });
});

describe('isTrustedCaller', () => {
  it.each([
    ['app://openai4s', true, true],
    ['app://openai4s', false, false],
    ['app://other', true, false],
    ['https://evil.example', true, false],
    ['file://', true, false],
    ['', true, false],
  ])('origin %j, main frame %j -> %j', (origin, isMainFrame, trusted) => {
    expect(isTrustedCaller({ origin, isMainFrame })).toBe(trusted);
  });
});

describe('bindRouterToIpc', () => {
  it('serves a call from the main frame at app://openai4s', async () => {
    const sender = new FakeWebContents('app://openai4s/index.html');
    await expect(call(invokeEvent(sender), 'ping.get')).resolves.toEqual({
      ok: true,
      data: { pong: true, windowId: sender.id },
    });
    expect(served).toBe(1);
  });

  it('refuses an iframe sender, even one at our own origin', async () => {
    const sender = new FakeWebContents('app://openai4s/index.html');
    for (const url of ['app://openai4s/index.html', 'https://evil.example/frame.html']) {
      const answer = await call(invokeEvent(sender, { url }), 'ping.get');
      expect(answer).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
    }
    expect(served).toBe(0);
  });

  it.each([
    'https://evil.example/',
    'http://localhost:5173/',
    'file:///work/main/out/renderer/index.html',
    'app://other/index.html',
    'app://openai4s.evil.example/index.html',
    'app://openai4s:8080/index.html',
    'data:text/html,<script>1</script>',
    'about:blank',
  ])('refuses the main frame of another origin: %s', async (url) => {
    const sender = new FakeWebContents(url);
    const answer = await call(invokeEvent(sender), 'ping.get');
    expect(answer).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
    expect(served).toBe(0);
  });

  it('refuses a null or destroyed sender frame with an answer, not a rejection', async () => {
    const sender = new FakeWebContents();
    await expect(call(invokeEvent(sender, null), 'ping.get')).resolves.toMatchObject({
      ok: false,
      error: { code: 'forbidden_sender' },
    });
    const disposed = invokeEvent(sender, () => {
      throw new Error('Render frame was disposed before WebFrameMain could be accessed');
    });
    await expect(call(disposed, 'ping.get')).resolves.toMatchObject({
      ok: false,
      error: { code: 'forbidden_sender' },
    });
    expect(served).toBe(0);
  });

  it.each(['ping.nope', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 42, null])(
    'refuses the route %j from a trusted frame with unknown_route',
    async (name) => {
      const sender = new FakeWebContents();
      const answer = await call(invokeEvent(sender), name);
      expect(answer).toMatchObject({ ok: false, error: { code: 'unknown_route' } });
      expect(served).toBe(0);
    },
  );

  it('refuses invalid input from a trusted frame with invalid_input', async () => {
    const sender = new FakeWebContents();
    const answer = await call(invokeEvent(sender), 'ping.get', { sneaky: 1 });
    expect(answer).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringContaining('sneaky') },
    });
  });

  it('binds exactly one channel and unbinds it', async () => {
    const ipc = createFakeElectron().ipcMain;
    const unbind = bindRouterToIpc(
      ipc as never,
      createRouter(routes, { 'ping.get': () => ({ pong: true as const, windowId: 0 }) }),
    );
    expect([...ipc.invokeHandlers.keys()]).toEqual([INVOKE_CHANNEL]);
    unbind();
    expect(ipc.invokeHandlers.size).toBe(0);
    await expect(
      ipc.invoke(INVOKE_CHANNEL, invokeEvent(new FakeWebContents()), 'ping.get', {}),
    ).rejects.toThrow(/No handler/);
  });
});

describe('sendEvent', () => {
  it('sends on the event channel, and never to destroyed contents', () => {
    const target = new FakeWebContents();
    sendEvent(target as never, 'app.notice', { level: 'info', message: 'hi' });
    target.destroyed = true;
    sendEvent(target as never, 'app.notice', { level: 'info', message: 'lost' });
    expect(target.sent).toEqual([[EVENT_CHANNEL, 'app.notice', { level: 'info', message: 'hi' }]]);
  });
});

describe('bindSubscriptionsToIpc', () => {
  it('records the topics of our main frame per window, ignores other senders, logs a malformed list', () => {
    const ipc = createFakeElectron().ipcMain;
    const subs = new WindowSubscriptions();
    const unbind = bindSubscriptionsToIpc(ipc as never, subs);
    const win = new FakeWebContents();
    const other = new FakeWebContents();
    ipc.send(SUBSCRIPTIONS_CHANNEL, invokeEvent(win), ['session.stream']);
    ipc.send(SUBSCRIPTIONS_CHANNEL, invokeEvent(other, { url: 'app://openai4s/index.html' }), ['kernel.output']);
    ipc.send(SUBSCRIPTIONS_CHANNEL, invokeEvent(other, null), ['kernel.output']);
    expect(subs.hears(win.id, 'session.stream')).toBe(true);
    expect(subs.hears(other.id, 'kernel.output')).toBe(false);

    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      ipc.send(SUBSCRIPTIONS_CHANNEL, invokeEvent(win), 'everything');
      expect(logged).toHaveBeenCalledWith(expect.stringMatching(/subscriptions message must be an array/));
    } finally {
      logged.mockRestore();
    }
    expect(subs.hears(win.id, 'session.stream')).toBe(true);

    unbind();
    ipc.send(SUBSCRIPTIONS_CHANNEL, invokeEvent(win), []);
    expect(subs.hears(win.id, 'session.stream')).toBe(true);
  });
});
