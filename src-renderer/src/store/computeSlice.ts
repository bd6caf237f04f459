import type { ComputeJobView, ComputeTargetView } from '../../../src-preload/contract/compute';
import type { ErrorBody } from '../../../src-preload/contract';
import { toErrorBody } from '../api/bridge';
import { createLoader, idle } from './loadable';
import type { ComputeSlice, Slice, StoreDeps } from './types';

type JobList = ComputeSlice['jobs'];
type TargetList = ComputeSlice['computeTargets'];

/** Compute jobs and targets (issue 23): the Jobs tab and Settings → Compute. */
export const createComputeSlice =
  (deps: StoreDeps): Slice<ComputeSlice> =>
  (set, get) => {
    const jobs = createLoader<JobList>((change) => set((s) => ({ jobs: change(s.jobs) })));
    const targets = createLoader<TargetList>((change) => set((s) => ({ computeTargets: change(s.computeTargets) })));
    /** Runs a change; answers the error or null. */
    const attempt = async (run: () => Promise<unknown>): Promise<ErrorBody | null> => {
      try {
        await run();
        return null;
      } catch (error) {
        return toErrorBody(error);
      }
    };
    return {
      jobs: { ...idle<ComputeJobView[]>([]), sessionId: null },
      loadJobs: (sessionId) =>
        jobs(
          () => deps.bridge.invoke('compute.jobs', { sessionId }),
          // Another session's jobs never show under this one while it loads.
          (field) => (field.sessionId === sessionId ? field : { ...field, sessionId, data: [] }),
        ),
      cancelJob: async (jobId) => {
        const error = await attempt(() => deps.bridge.invoke('compute.job.cancel', { jobId }));
        const sessionId = get().jobs.sessionId;
        if (sessionId) await get().loadJobs(sessionId);
        return error;
      },
      refreshJob: async (jobId) => {
        const error = await attempt(() => deps.bridge.invoke('compute.job.refresh', { jobId }));
        const sessionId = get().jobs.sessionId;
        if (sessionId) await get().loadJobs(sessionId);
        return error;
      },
      jobLogs: async (jobId) => {
        try {
          return { logs: await deps.bridge.invoke('compute.job.logs', { jobId }) };
        } catch (error) {
          return { error: toErrorBody(error) };
        }
      },
      computeTargets: idle<ComputeTargetView[]>([]),
      loadComputeTargets: () => targets(() => deps.bridge.invoke('compute.targets')),
      saveComputeTarget: (target) =>
        attempt(async () => {
          const list = await deps.bridge.invoke('compute.targets.save', { target });
          set({ computeTargets: { status: 'ready', data: list, error: null } });
        }),
      removeComputeTarget: (name) =>
        attempt(async () => {
          const list = await deps.bridge.invoke('compute.targets.remove', { name });
          set({ computeTargets: { status: 'ready', data: list, error: null } });
        }),
    };
  };
