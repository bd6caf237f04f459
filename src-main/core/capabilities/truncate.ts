/**
 * The shared truncation of model-facing text, in UTF-8 bytes (what a provider counts and
 * what a Chinese or emoji-heavy page inflates). The cut never splits a character, and the
 * note says how much was dropped and how to get the rest.
 */
export function truncateForModel(text: string, maxBytes: number, hint = 'ask for a smaller range or a more specific query'): { text: string; truncated: boolean } {
  // At most 3 UTF-8 bytes per UTF-16 unit: a short text fits without being encoded (a cell's small reads).
  if (text.length * 3 <= maxBytes) return { text, truncated: false };
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return { text, truncated: false };
  let end = maxBytes;
  // Step back to a character boundary (continuation bytes are 10xxxxxx).
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  const kept = bytes.subarray(0, end).toString('utf8');
  return { text: `${kept}\n[truncated: ${bytes.length - end} more bytes not shown; ${hint}]`, truncated: true };
}
