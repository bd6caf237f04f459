/**
 * A message that depends on a number: one text per CLDR plural category the language
 * uses (English: `one`, `other`; Chinese: `other` only). Which category a number falls
 * in is the language's rule, so it is asked of Intl.PluralRules, never of `n === 1`.
 */
export type PluralMessage = Readonly<Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }>;

/** A dictionary value: plain text, or plural forms chosen by the `count` parameter. */
export type Message = string | PluralMessage;

const rulesByLocale = new Map<string, Intl.PluralRules>();

function pluralRules(locale: string): Intl.PluralRules {
  let rules = rulesByLocale.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    rulesByLocale.set(locale, rules);
  }
  return rules;
}

/** The categories a locale distinguishes (the completeness test checks each form exists). */
export function pluralCategories(locale: string): Intl.LDMLPluralRule[] {
  return pluralRules(locale).resolvedOptions().pluralCategories;
}

/** The text of `message` for `count` in `locale`; `other` when the category has no form. */
export function selectPlural(locale: string, message: PluralMessage, count: number): string {
  return message[pluralRules(locale).select(count)] ?? message.other;
}

/** Every text a message can show (one for plain text, each form for a plural). */
export function formsOf(message: Message): string[] {
  return typeof message === 'string' ? [message] : Object.values(message);
}
