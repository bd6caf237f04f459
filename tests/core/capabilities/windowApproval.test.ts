import { describe, expect, it, vi } from 'vitest';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import type { ApprovalEventData, HostCallEventData } from '../../../src-preload/contract/approvals';
import { headlessApprovals, type ApprovalPort } from '../../../src-main/core/capabilities/permissions/approvals';
import { countingTool, ctx, memoryDispatcher } from './support';

/** A native dialog that nobody answers (lost behind a window); records whether it was closed. */
function lostDialog() {
  const closed: unknown[] = [];
  const port: ApprovalPort = {
    kind: 'dialog',
    ask: (_q, signal) =>
      new Promise((resolve) => {
        // Like Electron's showMessageBox with a signal: closing it answers with the cancel button (deny).
        signal.addEventListener('abort', () => {
          closed.push(signal.reason);
          resolve('deny');
        });
      }),
  };
  return { port, closed };
}

const dataOf = <T>(chunks: StreamChunk[], type: string) =>
  chunks.filter((c) => c.type === type).map((c) => (c as { data: T }).data);

describe('approvals answered in the window', () => {
  it('the answer from the window reaches the waiting call, closes the dialog and says a person answered', async () => {
    const { tool, runs } = countingTool('risky', 'network', 'ask', 30);
    const dialog = lostDialog();
    const host = memoryDispatcher(dialog.port, [tool]);
    const chunks: StreamChunk[] = [];
    const call = host.dispatcher.dispatch('risky', { key: 'a', reason: 'fetch it' }, ctx({ toolCallId: 't1', emit: (c) => chunks.push(c) }));
    await vi.waitFor(() => expect(dataOf<ApprovalEventData>(chunks, 'data-approval')).toHaveLength(1));
    const [asked] = dataOf<ApprovalEventData>(chunks, 'data-approval');
    expect(asked).toMatchObject({ state: 'requested', tool: 'risky', target: 'target-a', toolCallId: 't1' });
    await new Promise((r) => setTimeout(r, 20)); // the user reads the card

    expect(host.approvals.decide(asked!.requestId, 'allow_once')).toEqual({ requestId: asked!.requestId, delivered: true });
    const result = await call;
    expect(result.status).toBe('ok');
    expect(runs).toHaveLength(1);
    // The dialog asking the same question was withdrawn, and its late "deny" changed nothing.
    expect(dialog.closed).toHaveLength(1);
    const answered = dataOf<ApprovalEventData>(chunks, 'data-approval').at(-1);
    expect(answered).toMatchObject({ state: 'allowed_once', answeredBy: 'user' });
    // The call's duration counts without the wait for the answer.
    const [activity] = dataOf<HostCallEventData>(chunks, 'data-host-call');
    expect(activity!.approvalWaitMs).toBeGreaterThan(0);
    expect(activity!.durationMs).toBeGreaterThanOrEqual(activity!.approvalWaitMs!);
  });

  it('a second answer to the same question is too late: recorded, nothing more runs', async () => {
    const { tool, runs } = countingTool('risky', 'network', 'ask');
    const host = memoryDispatcher(lostDialog().port, [tool]);
    const chunks: StreamChunk[] = [];
    const call = host.dispatcher.dispatch('risky', { key: 'a' }, ctx({ emit: (c) => chunks.push(c) }));
    await vi.waitFor(() => expect(dataOf(chunks, 'data-approval')).toHaveLength(1));
    const requestId = dataOf<ApprovalEventData>(chunks, 'data-approval')[0]!.requestId;
    host.approvals.decide(requestId, 'deny');
    expect((await call).status).toBe('denied');
    expect(host.approvals.decide(requestId, 'allow_once')).toMatchObject({ delivered: false, ran: false, status: 'denied' });
    expect(runs).toHaveLength(0);
  });

  it('a denial by the headless policy says so on the approval event', async () => {
    const { tool } = countingTool('risky', 'network', 'ask');
    const host = memoryDispatcher(headlessApprovals({}), [tool]);
    const chunks: StreamChunk[] = [];
    expect((await host.dispatcher.dispatch('risky', { key: 'a' }, ctx({ emit: (c) => chunks.push(c) }))).status).toBe('denied');
    expect(dataOf<ApprovalEventData>(chunks, 'data-approval').at(-1)).toMatchObject({ state: 'denied', answeredBy: 'headless' });
  });

  it('"always" is refused for a question about one step (the safety layers ask those)', async () => {
    const host = memoryDispatcher(lostDialog().port, []);
    const asking = host.approvals.ask(
      { sessionId: 's1', runId: null, origin: 'cell', tool: 'cell_review', target: 'sha', reason: 'flagged', sideEffect: 'exec', detail: '', generationId: null, callKey: 'k', noRemember: true },
      new AbortController().signal,
    );
    await vi.waitFor(() => expect(host.approvals.waitingCount).toBe(1));
    const [request] = [...host.requests.requests.values()];
    expect(() => host.approvals.decide(request!.id, 'allow_always')).toThrow(/safety check about one step/);
    host.approvals.decide(request!.id, 'allow_once');
    expect(await asking).toMatchObject({ answer: 'allow_once', recorded: true, answeredBy: 'user' });
    expect(host.rules.listRules()).toEqual([]);
  });

  it('cancelling the run while the question waits closes the dialog too', async () => {
    const { tool, runs } = countingTool('risky', 'network', 'ask');
    const dialog = lostDialog();
    const host = memoryDispatcher(dialog.port, [tool]);
    const controller = new AbortController();
    const call = host.dispatcher.dispatch('risky', { key: 'a' }, ctx({ signal: controller.signal }));
    await vi.waitFor(() => expect(host.approvals.waitingCount).toBe(1));
    controller.abort(new Error('stop'));
    expect((await call).status).toBe('denied');
    expect(dialog.closed).toHaveLength(1);
    expect(runs).toHaveLength(0);
  });
});
