import type { Routes } from '../../../src-preload/contract/routes';
import { defineHandlers, type HandlersFor } from '../ipc/handlers';
import type { Core } from '../core';

/**
 * The one exhaustive handler map of the app: a missing or extra route is a compile
 * error. This object is the audited surface between the renderer and the core.
 */
export function createHandlers(core: Core): HandlersFor<Routes> {
  return defineHandlers<Routes>()({
    'doctor.get': (input) => core.doctor(input.refresh ?? false),
    'kernel.execute': (input) =>
      core.kernels.execute(input.sessionId, input.language, input.code, input.timeoutMs ? { timeoutMs: input.timeoutMs } : {}),
    'kernel.interrupt': (input) => ({ interrupted: core.kernels.interrupt(input.sessionId, input.language) }),
    'kernel.restart': (input) => core.kernels.restart(input.sessionId, input.language),
    'kernel.status': (input) => core.kernels.status(input.sessionId),
    'session.create': (input) => core.ledger.createSession(input.title),
    'session.list': () => core.ledger.sessions.list(),
    'session.get': (input) => core.ledger.detail(input.sessionId),
    'session.rename': (input) => core.ledger.sessions.rename(input.sessionId, input.title, input.expectedRevision),
    'session.delete': (input) => {
      core.ledger.deleteSession(input.sessionId);
      return { deleted: true as const };
    },
    'session.history': (input) => core.ledger.history(input.sessionId),
  });
}
