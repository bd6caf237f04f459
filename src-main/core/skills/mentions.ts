/**
 * The skills a message attaches with `@name` (the composer's picker writes them), in order
 * of first mention, limited to known names so "@alice" or an e-mail address is just text.
 */
export function mentionedSkills(message: string, known: readonly string[]): string[] {
  const names = new Set(known);
  const found: string[] = [];
  for (const match of message.matchAll(/(?:^|[\s(])@([a-z0-9]+(?:-[a-z0-9]+)*)(?=$|[\s.,;:!?)])/g)) {
    const name = match[1]!;
    if (names.has(name) && !found.includes(name)) found.push(name);
  }
  return found.slice(0, 5);
}
