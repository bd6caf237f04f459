import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../../src-preload/contract/events';
import type { CallerInfo } from '../core/ipc/handlers';
import type { Router } from '../core/ipc/router';
import { APP_ORIGIN } from './origin';

/**
 * Describes the caller of an IPC invoke. `senderFrame` may be null when the frame
 * navigated away or was destroyed; such a caller is treated as no origin at all.
 */
export function callerOf(event: IpcMainInvokeEvent): CallerInfo {
  const frame = event.senderFrame;
  let origin = '';
  if (frame) {
    try {
      origin = new URL(frame.url).origin;
      // Custom schemes that are not "standard" report "null" as origin; rebuild it.
      if (origin === 'null') {
        const u = new URL(frame.url);
        origin = `${u.protocol}//${u.host}`;
      }
    } catch {
      origin = '';
    }
  }
  return {
    origin,
    isMainFrame: !!frame && frame === event.sender.mainFrame,
    windowId: event.sender.id,
  };
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

/** Sends an event to one renderer; never to a destroyed one. */
export function sendEvent(target: WebContents, topic: string, payload: unknown): void {
  if (!target.isDestroyed()) target.send(EVENT_CHANNEL, topic, payload);
}
