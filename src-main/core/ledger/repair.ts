import { fold } from '../../../src-preload/contract/fold';
import type { ActionsRepo } from './actionsRepo';
import type { Db } from './database';
import type { EventLog } from './eventLog';
import type { KernelsRepo } from './kernelsRepo';
import type { PermissionsRepo } from './permissionsRepo';
import type { RunsRepo } from './runsRepo';

/** The canonical result of a call cut off by a crash. Said once, used everywhere. */
export const INTERRUPTED_RESULT = 'interrupted: effect unknown, not replayed';

export interface RepairReport {
  interruptedGroups: string[];
  interruptedRuns: string[];
  expiredPermissions: number;
  endedKernels: number;
}

const PENDING_TOOL_STATES = new Set(['input-streaming', 'input-available', 'approval-requested']);

/**
 * Crash repair, run at open before anything else touches the ledger, and only by a process
 * that found itself alone with the ledger (ownership.ts: no other live process holds its
 * lock), so a run still in flight belongs to a process that died (SIGKILL, power loss).
 * Whatever it was doing may or may not have reached the world, so nothing is replayed. Instead, in one transaction:
 *  - every call of an action group still `running` gets the canonical error result and the
 *    group becomes `interrupted`;
 *  - every run still `processing` or `queued` (or owning such a group) becomes `failed` / `interrupted`,
 *    and its stream gets the matching tool errors, an `error` and a `finish`, so the history
 *    the user reloads says what happened;
 *  - pending approvals expire (a decision after a restart must not resume the old call), and
 *    kernel generations still open are ended (their processes died with the app).
 */
export function repairOnOpen(deps: {
  db: Db;
  runs: RunsRepo;
  events: EventLog;
  actions: ActionsRepo;
  kernels: KernelsRepo;
  permissions: PermissionsRepo;
}): RepairReport {
  const { db, runs, events, actions, kernels, permissions } = deps;
  return db.transaction((): RepairReport => {
    const interruptedGroups = actions.runningGroupIds();
    const runIds = new Set<string>();
    const cutOff = new Map<string, string>();
    for (const id of interruptedGroups) {
      const group = actions.require(id);
      for (const e of group.events) if (e.finishedAt === null) actions.recordResult(id, e.idx, { error: INTERRUPTED_RESULT }, true);
      actions.markInterrupted(id);
      runIds.add(group.runId);
      cutOff.set(group.runId, group.kind === 'cell' ? 'a code cell' : 'a tool batch');
    }
    for (const run of runs.listByStatus('processing')) runIds.add(run.id);
    // A queued run waited in the dead process's FIFO; no runner will ever pick it up, and a
    // waiter on it would hang. Its message enters the history, marked as never run.
    for (const run of runs.listByStatus('queued')) runIds.add(run.id);

    const interruptedRuns: string[] = [];
    for (const runId of runIds) {
      const run = runs.require(runId);
      if (run.status !== 'queued' && run.status !== 'processing') continue;
      const during = cutOff.get(runId);
      const message = during
        ? `${INTERRUPTED_RESULT} (the app stopped during ${during})`
        : run.status === 'queued'
          ? 'interrupted: the app stopped before this queued message ran; nothing was sent to the model. Send it again to run it.'
          : 'interrupted: the app stopped during this run; nothing was replayed';
      if (run.status === 'queued') runs.start(runId, run.provider, run.model);
      runs.finish(runId, { status: 'failed', failureCode: 'interrupted', failureMessage: message });
      // A child run (delegation) has no message of its own in the session's history (its chunks
      // are wrapped in the parent's stream), so closing chunks would open a stray message.
      if (run.parentRunId) {
        interruptedRuns.push(runId);
        continue;
      }
      const messages = fold(events.readRun(run.sessionId, runId).map((e) => e.chunk));
      const last = messages[messages.length - 1];
      for (const part of last?.role === 'assistant' ? last.parts : []) {
        if ('toolCallId' in part && PENDING_TOOL_STATES.has(part.state)) {
          events.appendSync(run.sessionId, runId, { type: 'tool-output-error', toolCallId: part.toolCallId, errorText: INTERRUPTED_RESULT, errorCode: 'interrupted' });
        }
      }
      events.appendSync(run.sessionId, runId, { type: 'error', errorText: message, errorCode: 'interrupted' });
      events.appendSync(run.sessionId, runId, { type: 'finish', finishReason: 'error' });
      interruptedRuns.push(runId);
    }

    const openKernels = kernels.openIds();
    for (const id of openKernels) kernels.end(id, 'the app stopped; the kernel process ended with it');
    return { interruptedGroups, interruptedRuns, expiredPermissions: permissions.expirePending(), endedKernels: openKernels.length };
  }).immediate();
}
