import { useEffect, useState } from 'react';
import type { ErrorBody } from '../../../../src-preload/contract';
import type { ComputeJobLogs, ComputeJobState, ComputeJobView } from '../../../../src-preload/contract/compute';
import type { MessageKey } from '../../i18n/messages';
import { useT } from '../../i18n/useT';
import { formatElapsed } from '../parts/durationText';
import { useAppStore } from '../../store/context';
import { formatBytes } from '../parts/format';
import '../../styles/compute.css';
import { envelopeErrorText } from '../../errors/envelopeText';

/** How often the open tab reloads the list while a job of the session is still open (the core polls the targets). */
const RELOAD_MS = 3_000;
const EMPTY: ComputeJobView[] = [];
const TONE: Record<ComputeJobState, string> = {
  pending: 'pill-neutral',
  running: 'pill-neutral',
  completed: 'pill-ok',
  cancelled: 'pill-warn',
  failed: 'pill-bad',
  timeout: 'pill-bad',
  out_of_memory: 'pill-bad',
  node_fail: 'pill-bad',
};

function JobLogs({ jobId }: { jobId: string }) {
  const t = useT();
  const read = useAppStore((s) => s.jobLogs);
  const [answer, setAnswer] = useState<{ logs: ComputeJobLogs } | { error: ErrorBody } | null>(null);
  useEffect(() => {
    let live = true;
    void read(jobId).then((a) => live && setAnswer(a));
    return () => {
      live = false;
    };
  }, [jobId, read]);
  if (!answer) return <p className="muted small">{t('jobs.loading')}</p>;
  if ('error' in answer) return <div className="alert" role="alert">{envelopeErrorText(t, answer.error)}</div>;
  const { logs } = answer;
  return (
    <div className="job-logs" data-testid={`job-logs-${jobId}`}>
      <p className="muted small">{t(logs.source === 'harvested' ? 'jobs.logsFrom.harvested' : 'jobs.logsFrom.target')}</p>
      {logs.stdout ? <pre className="job-log">{logs.stdout}</pre> : null}
      {logs.stderr ? <pre className="job-log job-log-err">{logs.stderr}</pre> : null}
    </div>
  );
}

function JobRow({ job }: { job: ComputeJobView }) {
  const t = useT();
  const cancel = useAppStore((s) => s.cancelJob);
  const retry = useAppStore((s) => s.refreshJob);
  const [showLogs, setShowLogs] = useState(false);
  const [problem, setProblem] = useState<ErrorBody | null>(null);
  const open = !job.harvested && (job.state === 'pending' || job.state === 'running');
  return (
    <li className={`job job-${job.state}`} data-testid={`job-${job.id}`}>
      <div className="job-head">
        <span className={`pill ${TONE[job.state]}`} data-testid="job-state">
          {t(`jobs.state.${job.state}` as MessageKey)}
        </span>
        <span className="job-target">{job.target}</span>
        {job.schedulerJobId ? <span className="muted small">#{job.schedulerJobId}</span> : null}
        <span className="grow" />
        {open ? (
          <button type="button" onClick={() => void cancel(job.id).then(setProblem)} data-testid="job-cancel">
            {t('jobs.cancel')}
          </button>
        ) : null}
        <button type="button" onClick={() => setShowLogs((v) => !v)} aria-expanded={showLogs}>
          {t(showLogs ? 'jobs.hideLogs' : 'jobs.logs')}
        </button>
      </div>
      <dl className="job-facts">
        {job.elapsedSeconds !== null ? (
          <>
            <dt>{t('jobs.elapsed')}</dt>
            <dd data-testid="job-elapsed">{formatElapsed(job.elapsedSeconds * 1000, t)}</dd>
          </>
        ) : null}
        {job.exitCode !== null ? (
          <>
            <dt>{t('jobs.exit')}</dt>
            <dd>{job.exitCode}</dd>
          </>
        ) : null}
        {job.node ? (
          <>
            <dt>{t('jobs.node')}</dt>
            <dd>{job.node}</dd>
          </>
        ) : null}
      </dl>
      {job.reason ? <p className="small job-reason">{job.reason}</p> : null}
      {job.pollError ? (
        <p className="small alert" role="status" data-testid="job-unreachable">
          {t(job.unreachable ? 'jobs.pollingStopped' : 'jobs.unreachable')}: {job.pollError}{' '}
          {job.unreachable ? (
            <button type="button" onClick={() => void retry(job.id).then(setProblem)} data-testid="job-retry">
              {t('jobs.retry')}
            </button>
          ) : null}
        </p>
      ) : null}
      {job.outputsHarvested.length ? (
        <p className="small">
          {t('jobs.outputs')}: {job.outputsHarvested.map((o) => `${o.path} (${formatBytes(o.size)})`).join(', ')}
        </p>
      ) : null}
      {job.missingOutputs.length ? (
        <p className="small job-missing">
          {t('jobs.missing')}: {job.missingOutputs.join(', ')}
        </p>
      ) : null}
      {problem ? (
        <div className="alert" role="alert">
          {envelopeErrorText(t, problem)}
        </div>
      ) : null}
      {showLogs ? <JobLogs jobId={job.id} /> : null}
    </li>
  );
}

/** The session's compute jobs: live state, elapsed time, cancel, logs (issue 23). */
export function JobsTab() {
  const t = useT();
  const sessionId = useAppStore((s) => s.conversation?.sessionId ?? null);
  const jobs = useAppStore((s) => s.jobs);
  const load = useAppStore((s) => s.loadJobs);
  const shown = sessionId && jobs.sessionId === sessionId ? jobs.data : EMPTY;
  const anyOpen = shown.some((j) => !j.harvested);
  useEffect(() => {
    if (sessionId) void load(sessionId);
  }, [sessionId, load]);
  // While a job is open the list is reloaded; the core's poller is what asks the targets.
  useEffect(() => {
    if (!sessionId || !anyOpen) return;
    const timer = setInterval(() => void load(sessionId), RELOAD_MS);
    return () => clearInterval(timer);
  }, [sessionId, anyOpen, load]);
  return (
    <div className="jobs-tab" data-testid="jobs-tab">
      <p className="muted small">{t('jobs.note')}</p>
      {jobs.status === 'error' && jobs.error ? (
        <div className="alert" role="alert">
          {envelopeErrorText(t, jobs.error)}
        </div>
      ) : null}
      {shown.length ? (
        <ul className="job-list">
          {shown.map((j) => (
            <JobRow key={j.id} job={j} />
          ))}
        </ul>
      ) : (
        <p className="muted" data-testid="jobs-empty">
          {jobs.status === 'loading' ? t('jobs.loading') : t('jobs.empty')}
        </p>
      )}
    </div>
  );
}
