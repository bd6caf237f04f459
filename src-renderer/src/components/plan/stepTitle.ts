import type { ThinkingStepData } from '../../../../src-preload/contract';
import type { Params } from '../../i18n/language';
import type { MessageKey } from '../../i18n/messages';

type Translate = (key: MessageKey, params?: Params) => string;

/**
 * A step's words in the UI's language: an activity step carries a label (a message key and
 * its values, from engine/activitySteps.ts), said here through the i18n dictionaries; a
 * plan step (the agent's own words) and a step without a label keep their title.
 */
export function stepTitle(step: ThinkingStepData, t: Translate): string {
  if (!step.label) return step.title;
  return t(`activity.${step.label.key}`, step.label.params);
}
