import type {
  DataPartOf,
  DataUIPart,
  ErrorData,
  HostCallEventData,
} from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { EvidenceLink } from './AnswerCard';
import { FailedCellBadge } from './FailedCellBadge';
import { preview } from './format';
import { ProblemDetails } from '../failure/ProblemDetails';

/**
 * An error reported in the stream that is not the run's own failure (that one is explained
 * with Retry by AnswerOutcome): its text, the code only behind "details".
 */
export function ErrorPart({ data }: { data: ErrorData }) {
  const t = useT();
  return (
    <div className="part-error" role="alert" data-testid="error-part">
      <strong>{t('conv.errorPart')}</strong>
      <p>{data.errorText}</p>
      {data.errorCode ? <ProblemDetails code={data.errorCode} message="" /> : null}
    </div>
  );
}

// Approvals (a card while pending, a line once answered) live in ApprovalCard.tsx.
export { ApprovalLine } from './ApprovalCard';

/** A capability call a cell made through the host (tool calls show theirs in the tool card). */
export function HostCallLine({ data }: { data: HostCallEventData }) {
  const t = useT();
  const language = useAppStore((s) => s.language);
  return (
    <div
      className={`activity-line ${data.status === 'ok' ? '' : 'tone-bad'}`}
      data-testid="host-call-line"
    >
      <span className="mono">host.{data.method}</span>
      {data.target ? <span className="muted"> → {data.target}</span> : null}
      {/* A cell's identical calls share one line (count); the time is theirs together. */}
      {data.count && data.count > 1 ? <span className="muted" data-testid="host-call-count"> ×{data.count.toLocaleString(language)}</span> : null}
      <span className={`pill pill-${data.status === 'ok' ? 'ok' : 'bad'}`}>{t(`hostCall.status.${data.status}`)}</span>
      <span className="muted small"> {t('elapsed.seconds', { s: (data.durationMs / 1000).toFixed(2) })}</span>
    </div>
  );
}

/**
 * `data-evidence` / `data-artifact` parts: a compact reference to the record. An evidence
 * record the session's list has loaded is named by its chip alone (its title is on the chip's
 * hover); until then the chip shows the id, and the part's title follows it.
 */
export function RecordChip({ part }: { part: DataPartOf<'evidence'> | DataPartOf<'artifact'> }) {
  const t = useT();
  const id = part.data.id;
  const kind = part.type === 'data-evidence' ? 'evidence' : 'artifact';
  const named = useAppStore((s) => kind === 'evidence' && s.evidence.data.some((r) => r.id === id));
  const title = part.type === 'data-evidence' ? (named ? null : part.data.title) : part.data.path;
  return (
    <div className="activity-line" data-testid={`${kind}-part`}>
      <span className="pill pill-neutral">{t(kind === 'evidence' ? 'record.kind.evidence' : 'record.kind.artifact')}</span>
      {kind === 'evidence' && id ? <EvidenceLink id={id} /> : <span className="mono">{id}</span>}
      {title ? <span className="muted"> {title}</span> : null}
      {part.type === 'data-artifact' ? <FailedCellBadge outcome={part.data.cellOutcome} /> : null}
    </div>
  );
}

/** Any other app part: its type and data, collapsed. */
export function UnknownData({ part }: { part: DataUIPart }) {
  return (
    <details className="unknown-part">
      <summary className="mono muted">{part.type}</summary>
      <pre className="code-block">{preview(part.data)}</pre>
    </details>
  );
}
