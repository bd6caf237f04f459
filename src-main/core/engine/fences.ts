/** A complete fenced code block of a kernel language found in model text. */
export interface CodeFence {
  language: 'python' | 'r';
  code: string;
  /** Character offsets of the whole fence (opening line to closing backticks) in the text. */
  start: number;
  end: number;
}

const LANGS: Record<string, 'python' | 'r'> = { python: 'python', py: 'python', python3: 'python', r: 'r' };

/**
 * The first complete ```python / ```r fence in the text, or null. A fence counts only
 * when its closing line exists: an unclosed fence (the model stopped mid-cell) is never
 * executed. Fences of other languages (```json, ```bash) are skipped, not executed.
 */
export function firstCodeFence(text: string): CodeFence | null {
  const open = /^([ \t]{0,3})(`{3,}|~{3,})[ \t]*([A-Za-z0-9_+-]*)[^\n]*$/gm;
  let match: RegExpExecArray | null;
  while ((match = open.exec(text))) {
    const marker = match[2]!;
    const fenceChar = marker[0]!;
    const bodyStart = match.index + match[0].length + 1;
    // The closing fence: the same character, at least as long, alone on its line.
    const close = new RegExp(`^[ \\t]{0,3}${fenceChar === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`, 'gm');
    close.lastIndex = Math.min(bodyStart, text.length);
    const end = bodyStart <= text.length ? close.exec(text) : null;
    if (!end) return null; // unclosed: nothing after it can be a complete fence either
    const language = LANGS[match[3]!.toLowerCase()];
    if (language) {
      return {
        language,
        code: text.slice(bodyStart, end.index).replace(/\n$/, ''),
        start: match.index,
        end: end.index + end[0].length,
      };
    }
    open.lastIndex = end.index + end[0].length;
  }
  return null;
}
