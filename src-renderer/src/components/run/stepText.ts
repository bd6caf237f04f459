import type { ThinkingStepData } from '../../../../src-preload/contract';
import type { MessageKey } from '../../i18n/messages';
import type { Params } from '../../i18n/language';

type T = (key: MessageKey, params?: Params) => string;

/**
 * A step's title in the UI's language: an activity step's label (a message key and its
 * values, set by the engine) when it has one this build knows, else the title as sent
 * (plan steps are the model's own words; older ledgers have no label).
 */
export function stepText(step: ThinkingStepData, t: T): string {
  const label = step.label;
  if (!label) return step.title;
  const params = label.params ?? {};
  if (label.key === 'cell') return params.language === 'R' ? t('step.cell.R') : t('step.cell.Python');
  // A search without a query or database reads better in the engine's fuller English than as a gap.
  if (label.key === 'search' && (!params.query || !params.database)) return step.title;
  return t(`step.${label.key}` as MessageKey, params);
}
