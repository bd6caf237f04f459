import type { CompactionData, Handoff } from '../../../../src-preload/contract/compaction';
import type { MessageKey } from '../../i18n/messages';
import { useT } from '../../i18n/useT';
import '../../styles/compaction.css';

/** The handoff's fields in the design's order (the contract's list carries zod; the renderer ships none). */
const FIELDS: readonly [keyof Handoff, MessageKey][] = [
  ['objective', 'compaction.field.objective'],
  ['constraints', 'compaction.field.constraints'],
  ['decisions', 'compaction.field.decisions'],
  ['done', 'compaction.field.done'],
  ['inProgress', 'compaction.field.inProgress'],
  ['blocked', 'compaction.field.blocked'],
  ['nextMove', 'compaction.field.nextMove'],
  ['keyArtifacts', 'compaction.field.keyArtifacts'],
  ['activeKernelGeneration', 'compaction.field.activeKernelGeneration'],
];

/**
 * `data-compaction`: a divider "earlier turns summarised" where a long run's context was
 * compacted. The handoff the model continues from opens under it; the summarised turns
 * themselves stay in the conversation above (the ledger keeps everything).
 */
export function CompactionDivider({ data }: { data: CompactionData }) {
  const t = useT();
  return (
    <details className="compaction-divider" data-testid="compaction-divider">
      <summary>
        <span className="compaction-rule" aria-hidden="true" />
        <span className="compaction-label">{t('compaction.divider')}</span>
        <span className="muted small">
          {t('compaction.meta', { turn: data.turn, before: data.tokensBefore, after: data.tokensAfter, archived: data.archivedResults })}
          {data.source === 'fallback' ? ` · ${t('compaction.fallback')}` : ''}
        </span>
        <span className="compaction-rule" aria-hidden="true" />
      </summary>
      <dl className="compaction-handoff" data-testid="compaction-handoff">
        {FIELDS.map(([key, label]) => {
          const value = data.handoff[key];
          const items = Array.isArray(value) ? value : [value];
          return (
            <div key={key} className="compaction-field">
              <dt>{t(label)}</dt>
              <dd>
                {items.length === 0 ? (
                  <span className="muted">{t('compaction.none')}</span>
                ) : items.length === 1 && !Array.isArray(value) ? (
                  items[0]
                ) : (
                  <ul>
                    {items.map((item, i) => (
                      <li key={i}>{item}</li>
                    ))}
                  </ul>
                )}
              </dd>
            </div>
          );
        })}
        {data.fallbackReason ? <p className="muted small">{t('compaction.fallbackReason', { reason: data.fallbackReason })}</p> : null}
      </dl>
    </details>
  );
}
