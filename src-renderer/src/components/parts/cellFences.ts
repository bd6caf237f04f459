import type { UIPart } from '../../../../src-preload/contract';
import { isDataPart } from './dataPart';

/** The code of every cell of a message (a model's fence the engine ran becomes one). */
export function cellCodesOf(parts: readonly UIPart[]): ReadonlySet<string> {
  const codes = new Set<string>();
  for (const p of parts) if (isDataPart(p, 'cell')) codes.add(normal(p.data.code));
  return codes;
}

const normal = (code: string) => code.replace(/\r\n/g, '\n').trim();

/**
 * The model's text without the fenced blocks that became cells of the same message: the
 * cell card shows that code (numbered, with its output), so it is not repeated as a
 * Markdown block above it. A fence still being written, or one that did not run, stays.
 * Fences are found as the engine finds them (a marker of 3+ backticks or tildes, closed
 * by the same character at least as long, alone on its line).
 */
export function withoutCellFences(text: string, codes: ReadonlySet<string>): string {
  if (codes.size === 0 || !text.includes('\n')) return text;
  const open = /^[ \t]{0,3}(`{3,}|~{3,})[^\n]*$/gm;
  let out = '';
  let from = 0;
  let match: RegExpExecArray | null;
  while ((match = open.exec(text))) {
    const marker = match[1]!;
    const bodyStart = match.index + match[0].length + 1;
    const close = new RegExp(`^[ \\t]{0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`, 'gm');
    close.lastIndex = Math.min(bodyStart, text.length);
    const end = bodyStart <= text.length ? close.exec(text) : null;
    if (!end) break;
    const fenceEnd = end.index + end[0].length;
    if (codes.has(normal(text.slice(bodyStart, end.index)))) {
      out += text.slice(from, match.index);
      from = fenceEnd;
    }
    open.lastIndex = fenceEnd;
  }
  return from === 0 ? text : out + text.slice(from);
}
