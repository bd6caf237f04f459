import { useState } from 'react';
import type { CellData } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';

/** What one click adds to a running cell's wall-clock limit. */
export const EXTEND_STEP_MS = 15 * 60_000;

function minutes(ms: number): number {
  return Math.max(1, Math.round(ms / 60_000));
}

/**
 * The wall-clock limit of a running agent cell, with a control to give it more time
 * before the limit stops it (`kernel.extendCellLimit`).
 */
export function CellTimeLimit({ cell }: { cell: CellData }) {
  const t = useT();
  const extend = useAppStore((s) => s.extendCellLimit);
  const [limitMs, setLimitMs] = useState<number | null>(null);
  const [over, setOver] = useState(false);
  const [busy, setBusy] = useState(false);
  if (cell.status !== 'running' || !cell.timeLimitMs) return null;
  const shown = limitMs ?? cell.timeLimitMs;
  return (
    <span className="cell-limit" data-testid="cell-limit">
      <span className="muted">{t('cell.limit', { minutes: minutes(shown) })}</span>
      {over ? (
        <span className="muted"> · {t('cell.limitNotRunning')}</span>
      ) : (
        <button
          type="button"
          className="btn btn-ghost"
          disabled={busy}
          title={t('cell.extendTitle', { minutes: minutes(EXTEND_STEP_MS) })}
          onClick={() => {
            setBusy(true);
            void extend(cell.language, EXTEND_STEP_MS)
              .then((answer) => {
                if (answer?.extended && answer.limitMs) setLimitMs(answer.limitMs);
                else if (answer) setOver(true);
              })
              .finally(() => setBusy(false));
          }}
        >
          {t('cell.extend', { minutes: minutes(EXTEND_STEP_MS) })}
        </button>
      )}
    </span>
  );
}
