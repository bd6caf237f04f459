/**
 * The skills a message attaches with `@name` (the composer's picker writes them), in order
 * of first mention, limited to known names so "@alice" or an e-mail address is just text.
 */
export function mentionedSkills(message: string, known: readonly string[] | (() => readonly string[])): string[] {
  const mentioned = [...message.matchAll(/(?:^|[\s(])@([a-z0-9]+(?:-[a-z0-9]+)*)(?=$|[\s.,;:!?)])/g)].map((m) => m[1]!);
  // The known names (a listing of the skill folders) are asked for only when something is mentioned.
  if (!mentioned.length) return [];
  const names = new Set(typeof known === 'function' ? known() : known);
  const found: string[] = [];
  for (const name of mentioned) if (names.has(name) && !found.includes(name)) found.push(name);
  return found.slice(0, 5);
}
