import type { CellOutcomeSummary } from '../../../../src-preload/contract/artifacts';
import { useT } from '../../i18n/useT';

/**
 * Marks an output of a cell that did not end ok: a figure drawn before a cell raised is
 * not a result, and must never look like one. The reason is in the tooltip.
 */
export function FailedCellBadge({ outcome }: { outcome: CellOutcomeSummary | undefined }) {
  const t = useT();
  if (!outcome || outcome.status === 'ok') return null;
  return (
    <span className="pill pill-bad" data-testid="failed-cell-badge" title={outcome.error ?? outcome.status}>
      {t('artifact.failedCell')}
    </span>
  );
}
