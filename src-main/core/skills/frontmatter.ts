import { parseDocument } from 'yaml';

/** A SKILL.md split into its YAML frontmatter (a plain object) and its Markdown body. */
export interface SkillDocument {
  data: Record<string, unknown>;
  body: string;
}

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE = /\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Splits and parses the frontmatter. Throws an Error naming what is wrong (no
 * frontmatter, bad YAML, not a mapping): the catalogue lists the skill with that reason.
 * Aliases are limited so a hostile file cannot expand into gigabytes ("billion laughs").
 */
export function parseSkillDocument(text: string): SkillDocument {
  const open = OPEN.exec(text);
  if (!open) throw new Error('SKILL.md must start with a YAML frontmatter block between "---" lines');
  const rest = text.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (!close) throw new Error('the frontmatter is not closed by a "---" line');
  const doc = parseDocument(rest.slice(0, close.index), { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) throw new Error(`the frontmatter is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
  const data = doc.toJS({ maxAliasCount: 50 }) as unknown;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new Error('the frontmatter must be a mapping of keys to values');
  return { data: data as Record<string, unknown>, body: rest.slice(close.index + close[0].length) };
}
