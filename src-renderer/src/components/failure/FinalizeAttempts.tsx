import '../../styles/failure.css';
import type { MessageKey } from '../../i18n/messages';
import { useT } from '../../i18n/useT';
import { summarizeRefusals } from '../../errors/finalizeAttempts';

/**
 * Every refused `finalize_response` of a run as one line, the refusals themselves behind
 * a disclosure: the engine's retries are routine, not three red errors.
 */
export function FinalizeAttempts({ errors, accepted, live }: { errors: readonly string[]; accepted: boolean; live: boolean }) {
  const t = useT();
  const summary = summarizeRefusals(errors, accepted, live);
  const reasons = summary.reasons.map((r) => t(`finalize.reason.${r}` as MessageKey)).join(', ');
  const line = t(`finalize.${summary.outcome}` as MessageKey, { count: summary.refused, reasons, next: summary.refused + 1 });
  return (
    <details className={`activity-line finalize-attempts${summary.outcome === 'failed' ? ' tone-bad' : ''}`} data-testid="finalize-attempts" data-outcome={summary.outcome} data-refused={summary.refused}>
      <summary>{line}</summary>
      <ol className="finalize-refusals">
        {errors.map((text, i) => (
          <li key={i}>
            <strong className="small">{t('finalize.attempt', { n: i + 1 })}</strong>
            <pre className="problem-raw">{text}</pre>
          </li>
        ))}
      </ol>
    </details>
  );
}
