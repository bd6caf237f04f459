import type { DataPartData } from '../../../../src-preload/contract';
import type { MessageKey } from '../../i18n/messages';
import { useT } from '../../i18n/useT';
import { formatElapsed } from '../parts/durationText';

/** A compute job as a step of the conversation: target, state, exit code, elapsed, what came back. */
export function JobStep({ data }: { data: DataPartData['compute-job'] }) {
  const t = useT();
  const facts = [
    data.exitCode === null ? null : `${t('jobs.exit')} ${data.exitCode}`,
    data.elapsedSeconds === null ? null : formatElapsed(data.elapsedSeconds * 1000, t),
    data.outputs.length ? `${t('jobs.outputs')}: ${data.outputs.join(', ')}` : null,
    data.missing.length ? `${t('jobs.missing')}: ${data.missing.join(', ')}` : null,
  ].filter(Boolean);
  return (
    <div className="job-step small" data-testid={`job-step-${data.jobId}`}>
      <span className="muted">{t('panel.jobs')}</span> <strong>{data.target}</strong> · {t(`jobs.state.${data.state}` as MessageKey)}
      {facts.length ? ` · ${facts.join(' · ')}` : ''}
      {data.reason && data.state !== 'running' && data.state !== 'pending' ? <div className="muted">{data.reason}</div> : null}
    </div>
  );
}
