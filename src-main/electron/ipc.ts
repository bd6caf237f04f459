import type { IpcMain, IpcMainEvent, IpcMainInvokeEvent, WebContents } from 'electron';
import { EVENT_CHANNEL, INVOKE_CHANNEL, SUBSCRIPTIONS_CHANNEL } from '../../src-preload/contract/events';
import type { CallerInfo } from '../core/api/defineHandlers';
import type { Router } from '../core/api/router';
import { APP_ORIGIN } from './origin';
import { MALFORMED_SUBSCRIPTIONS, type WindowSubscriptions } from './topicFilter';

/** The origin of a frame URL; custom non-"special" schemes report "null", so rebuild it. */
function originOf(frameUrl: string): string {
  try {
    const url = new URL(frameUrl);
    return url.origin === 'null' ? `${url.protocol}//${url.host}` : url.origin;
  } catch {
    // An unparseable URL has no origin: the caller is treated as nobody, and refused.
    return '';
  }
}

/**
 * Describes the caller of an IPC invoke. `senderFrame` may be null when the frame
 * navigated away or was destroyed, and a destroyed frame or contents throws on
 * access; either way the caller is treated as nobody (no origin, not the main frame),
 * and this never throws, so the router still answers with an envelope.
 */
export function callerOf(event: IpcMainInvokeEvent | IpcMainEvent): CallerInfo {
  try {
    const frame = event.senderFrame;
    return {
      origin: frame ? originOf(frame.url) : '',
      isMainFrame: !!frame && frame === event.sender.mainFrame,
      windowId: event.sender.id,
    };
  } catch {
    // A destroyed frame or contents throws on access: nobody (see above).
    return { origin: '', isMainFrame: false };
  }
}

/** Only the main frame of our own window, at our own origin, may call. */
export function isTrustedCaller(caller: CallerInfo): boolean {
  return caller.isMainFrame && caller.origin === APP_ORIGIN;
}

export function bindRouterToIpc(ipcMain: IpcMain, router: Router): () => void {
  ipcMain.handle(INVOKE_CHANNEL, (event, route: unknown, input: unknown) =>
    router.handle(route, input, callerOf(event)),
  );
  return () => ipcMain.removeHandler(INVOKE_CHANNEL);
}

/**
 * Records which topics each window hears, from its preload's subscriptions messages.
 * Only our own main frame may subscribe (the same rule as invoke); anything else is
 * ignored, as a malformed list from our own frame is (with a log line saying why).
 */
export function bindSubscriptionsToIpc(ipcMain: IpcMain, subscriptions: WindowSubscriptions): () => void {
  const listener = (event: IpcMainEvent, topics: unknown) => {
    const caller = callerOf(event);
    if (!isTrustedCaller(caller) || caller.windowId === undefined) return;
    if (!subscriptions.set(caller.windowId, topics)) console.error(`[ipc] ${MALFORMED_SUBSCRIPTIONS}`);
  };
  ipcMain.on(SUBSCRIPTIONS_CHANNEL, listener);
  return () => ipcMain.removeListener(SUBSCRIPTIONS_CHANNEL, listener);
}

/** Sends an event to one renderer; never to a destroyed one. */
export function sendEvent(target: WebContents, topic: string, payload: unknown): void {
  if (!target.isDestroyed()) target.send(EVENT_CHANNEL, topic, payload);
}
