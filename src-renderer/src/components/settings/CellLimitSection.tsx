import { useState } from 'react';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import type { SaveSettings } from './saveSettings';
import { Section } from './Section';

/** The built-in limit (OPENAI4S_CELL_TIMEOUT_S overrides both it and this setting). */
const DEFAULT_MINUTES = 30;

/**
 * The wall-clock limit of agent cells, in minutes (stored in seconds). Empty means the
 * default; a running cell can still be given more time from its own view.
 */
export function CellLimitSection({ save }: { save: SaveSettings }) {
  const t = useT();
  const seconds = useAppStore((s) => s.settings.data?.settings.cellTimeoutS ?? null);
  const [draft, setDraft] = useState<string | null>(null);
  const shown = draft ?? (seconds ? String(Math.round(seconds / 60)) : '');
  const commit = () => {
    if (draft === null) return;
    const minutes = Number(draft.trim());
    if (!draft.trim()) void save({ cellTimeoutS: null });
    else if (Number.isInteger(minutes) && minutes >= 1 && minutes <= 7 * 24 * 60)
      void save({ cellTimeoutS: minutes * 60 });
    setDraft(null);
  };
  return (
    <Section title={t('settings.cellLimit.title')} note={t('settings.cellLimit.note')}>
      <label className="field">
        <span>{t('settings.cellLimit.label')}</span>
        <input
          type="number"
          min={1}
          step={1}
          value={shown}
          placeholder={String(DEFAULT_MINUTES)}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit();
          }}
          data-testid="cell-limit-minutes"
        />
      </label>
    </Section>
  );
}
