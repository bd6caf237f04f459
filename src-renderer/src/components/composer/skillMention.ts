/**
 * `@name` in the message box. Main decides which skills a message attaches
 * (src-main/core/skills/mentions.ts); the renderer may not import core, so the pattern is
 * repeated here for the chips, and a renderer test checks both agree.
 */
const MENTION = /(?:^|[\s(])@([a-z0-9]+(?:-[a-z0-9]+)*)(?=$|[\s.,;:!?)])/g;
/** Main attaches at most this many skills per message. */
const MAX_ATTACHED = 5;

/** The enabled skills the text names, in order of first mention (what main will attach). */
export function attachedSkills(text: string, enabled: readonly string[]): string[] {
  const names = new Set(enabled);
  const found: string[] = [];
  for (const match of text.matchAll(MENTION)) {
    const name = match[1]!;
    if (names.has(name) && !found.includes(name)) found.push(name);
  }
  return found.slice(0, MAX_ATTACHED);
}

/** The `@word` being typed just before the caret: where its `@` is and what follows it. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const match = /(?:^|[\s(])@([a-z0-9-]*)$/.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[1]!.length - 1, query: match[1]! };
}

/** The text with the `@word` at `start..caret` replaced by `@name `, and where the caret goes. */
export function insertMention(
  text: string,
  start: number,
  caret: number,
  name: string,
): { text: string; caret: number } {
  const rest = text.slice(caret).replace(/^[a-z0-9-]*/, '');
  const inserted = `@${name}${rest.startsWith(' ') ? '' : ' '}`;
  return {
    text: text.slice(0, start) + inserted + rest,
    caret: start + inserted.length + (rest.startsWith(' ') ? 1 : 0),
  };
}

/** The text without `@name` (and the space after it), for a chip's remove button. */
export function removeMention(text: string, name: string): string {
  const escaped = name.replace(/-/g, '\\-');
  return text.replace(new RegExp(`(^|[\\s(])@${escaped}(?=$|[\\s.,;:!?)]) ?`, 'g'), '$1');
}

/** Enabled skills matching what follows the `@`: names starting with it first, then containing it. */
export function matchSkills<T extends { name: string }>(
  skills: readonly T[],
  query: string,
  limit = 8,
): T[] {
  const q = query.toLowerCase();
  const starts = skills.filter((s) => s.name.startsWith(q));
  const contains = skills.filter((s) => !s.name.startsWith(q) && s.name.includes(q));
  return [...starts, ...contains].slice(0, limit);
}
