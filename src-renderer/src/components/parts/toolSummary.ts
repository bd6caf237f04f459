/**
 * What a tool call asked, for its card's collapsed line: the database and query of a
 * search, the URL of a fetch, the path of a file tool, else the first telling argument.
 * Null when the input names nothing worth a line (the card then shows only the tool).
 */
export function toolSummary(name: string, input: unknown): string | null {
  if (!input || typeof input !== 'object') return null;
  const a = input as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  const query = str(a.query);
  if (name === 'science_search') {
    const db = str(a.database);
    if (db && query) return `${db} · “${query}”`;
    return db ?? (query ? `“${query}”` : null);
  }
  if (query) return `“${query}”`;
  const first = str(a.url) ?? str(a.path) ?? str(a.file) ?? str(a.name) ?? str(a.id) ?? str(a.target);
  if (first) return first;
  const paths = Array.isArray(a.paths) ? a.paths.filter((p): p is string => typeof p === 'string') : [];
  return paths.length ? paths.join(', ') : null;
}
