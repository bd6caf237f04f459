import type { en } from './locales/en';
import type { PluralMessage } from './plural';

/** Every message key; the English dictionary defines them. */
export type MessageKey = keyof typeof en;

/**
 * A complete dictionary: every key, plain text where English has plain text and
 * plural forms where English has them (so a plural is a plural in every language).
 */
export type Dictionary = {
  readonly [K in MessageKey]: (typeof en)[K] extends string ? string : PluralMessage;
};
