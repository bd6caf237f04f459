import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope } from '../../src-preload/contract';
import type { ComputeJobLogs, ComputeJobView } from '../../src-preload/contract/compute';
import { bridge } from '../../src-renderer/src/api/bridge';
import { JobsTab } from '../../src-renderer/src/components/compute/JobsTab';
import { JobStep } from '../../src-renderer/src/components/compute/JobStep';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

// Issue 23: the Jobs tab shows each job's live state, elapsed time and logs, and cancels a running one.

function job(over: Partial<ComputeJobView>): ComputeJobView {
  return {
    id: 'job_aaaaaaaaaaaaaaaa',
    sessionId: 's1',
    target: 'hpc',
    targetKind: 'slurm',
    language: 'python',
    scriptSha256: 'a'.repeat(64),
    scriptHead: 'print(1)',
    inputs: [],
    outputs: ['out.csv'],
    resources: { cpus: 2 },
    createdAt: '2026-01-01T00:00:00.000Z',
    schedulerJobId: '42',
    remoteDir: '/scratch/job',
    state: 'running',
    reason: null,
    exitCode: null,
    node: 'node7',
    partition: 'gpu',
    elapsedSeconds: 125,
    startedAt: '2026-01-01T00:00:01.000Z',
    endedAt: null,
    harvested: false,
    outputsHarvested: [],
    missingOutputs: [],
    logs: { stdout: null, stderr: null },
    lastPolledAt: null,
    pollError: null,
    unreachable: false,
    ...over,
  };
}

/** main's compute routes over two jobs: one running (cancellable), one that failed without its output. */
function backend() {
  const running = job({});
  const failed = job({ id: 'job_bbbbbbbbbbbbbbbb', state: 'failed', exitCode: 0, harvested: true, elapsedSeconds: 7, missingOutputs: ['out.csv'], reason: 'declared output "out.csv" was not written' });
  const calls: string[] = [];
  const api = fakeBridgeApi((route, input): Envelope<unknown> => {
    calls.push(route);
    const { jobId } = input as { jobId?: string };
    switch (route) {
      case 'compute.jobs':
        return { ok: true, data: [running, failed] };
      case 'compute.job.cancel':
        Object.assign(running, { state: 'cancelled', harvested: true, reason: 'cancelled' });
        return { ok: true, data: running };
      case 'compute.job.logs': {
        const logs: ComputeJobLogs = { jobId: jobId!, stdout: 'step 1 of 3\n', stderr: '', source: 'target', truncated: false };
        return { ok: true, data: logs };
      }
      default:
        return { ok: false, error: { code: 'unknown_route', message: route } };
    }
  });
  return { api, calls };
}

afterEach(() => cleanup());

/** The Jobs tab of session s1, over whatever window.openai4s answers. */
function mountJobsTab() {
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  store.setState({ conversation: { sessionId: 's1' } as never });
  render(
    <StoreProvider store={store}>
      <JobsTab />
    </StoreProvider>,
  );
}

describe('Jobs tab', () => {
  it('shows state, elapsed time, the missing output, logs, and cancels a running job', async () => {
    const { api, calls } = backend();
    window.openai4s = api;
    mountJobsTab();
    const running = await screen.findByTestId('job-job_aaaaaaaaaaaaaaaa');
    expect(within(running).getByTestId('job-state').textContent).toBe('running');
    expect(within(running).getByTestId('job-elapsed').textContent).toBe('2 min 05 s');
    const failed = screen.getByTestId('job-job_bbbbbbbbbbbbbbbb');
    expect(within(failed).getByTestId('job-state').textContent).toBe('failed');
    expect(failed.textContent).toContain('Not written: out.csv');
    // Only a job still open can be cancelled.
    expect(within(failed).queryByTestId('job-cancel')).toBeNull();

    fireEvent.click(within(running).getByRole('button', { name: 'Logs' }));
    expect((await screen.findByTestId('job-logs-job_aaaaaaaaaaaaaaaa')).textContent).toContain('step 1 of 3');

    fireEvent.click(within(running).getByTestId('job-cancel'));
    await waitFor(() => expect(within(screen.getByTestId('job-job_aaaaaaaaaaaaaaaa')).getByTestId('job-state').textContent).toBe('cancelled'));
    expect(calls).toContain('compute.job.cancel');
  });

  it('says there is no job, and formats elapsed times', async () => {
    window.openai4s = fakeBridgeApi((route): Envelope<unknown> => (route === 'compute.jobs' ? { ok: true, data: [] } : { ok: false, error: { code: 'unknown_route', message: route } }));
    mountJobsTab();
    await waitFor(() => expect(screen.getByTestId('jobs-empty').textContent).toContain('No compute job in this session'));
  });

  it('shows a job as a conversation step: target, state, exit code, elapsed, outputs and the missing one', () => {
    const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
    render(
      <StoreProvider store={store}>
        <JobStep
          data={{ jobId: 'job_cccccccccccccccc', target: 'hpc', state: 'failed', exitCode: 0, elapsedSeconds: 65, reason: 'declared output "b.csv" was not written', harvested: true, outputs: ['a.csv'], missing: ['b.csv'] }}
        />
      </StoreProvider>,
    );
    expect(screen.getByTestId('job-step-job_cccccccccccccccc').textContent).toBe(
      'Jobs hpc · failed · Exit code 0 · 1 min 05 s · Outputs: a.csv · Not written: b.csvdeclared output "b.csv" was not written',
    );
  });

  it('an unreachable job says polling stopped and why, and Retry asks the target again', async () => {
    const stuck = job({ id: 'job_dddddddddddddddd', pollError: 'target "hpc" (login.example.org) could not be polled for 10 min over 5 tries', unreachable: true });
    const calls: string[] = [];
    window.openai4s = fakeBridgeApi((route): Envelope<unknown> => {
      calls.push(route);
      if (route === 'compute.jobs') return { ok: true, data: [stuck] };
      if (route === 'compute.job.refresh') {
        Object.assign(stuck, { pollError: null, unreachable: false });
        return { ok: true, data: stuck };
      }
      return { ok: false, error: { code: 'unknown_route', message: route } };
    });
    mountJobsTab();
    const row = await screen.findByTestId('job-job_dddddddddddddddd');
    expect(within(row).getByTestId('job-unreachable').textContent).toContain('Polling stopped: target "hpc" (login.example.org) could not be polled');
    fireEvent.click(within(row).getByTestId('job-retry'));
    await waitFor(() => expect(within(screen.getByTestId('job-job_dddddddddddddddd')).queryByTestId('job-unreachable')).toBeNull());
    expect(calls).toContain('compute.job.refresh');
  });
});
