/**
 * Output limits in bytes at the worst case of JSON-escaped UTF-8 (DESIGN.md, Kernels):
 * whatever escaping a consumer applies (JSON.stringify, Python's ensure_ascii, SSE),
 * the text we keep never costs more than the cap. Counting characters would let a
 * cell of emoji cost six times its budget once escaped as `\ud83d\ude00`.
 */
export function worstCaseCost(code: number): number {
  if (code === 0x22 || code === 0x5c) return 2; // \" and \\
  if (code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d) return 2; // \b \t \n \f \r
  if (code < 0x20 || code === 0x7f) return 6; // \u00XX
  if (code < 0x80) return 1;
  return 6; // any other UTF-16 unit may be written as \uXXXX (a surrogate pair: 12)
}

export function worstCaseBytes(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) n += worstCaseCost(text.charCodeAt(i));
  return n;
}

/** The longest prefix of `text` costing at most `budget`, never splitting a surrogate pair. */
export function prefixWithin(text: string, budget: number): { text: string; cost: number } {
  let cost = 0;
  let i = 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const isHigh = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length;
    const unit = isHigh ? worstCaseCost(c) + worstCaseCost(text.charCodeAt(i + 1)) : worstCaseCost(c);
    if (cost + unit > budget) break;
    cost += unit;
    if (isHigh) i++;
  }
  return { text: text.slice(0, i), cost };
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10240 ? 1 : 0)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * One budget shared by a cell's stdout and stderr. `take` returns what may be kept;
 * past the cap it keeps nothing and counts what was dropped, so memory stays bounded
 * however much the cell prints.
 */
export class OutputBudget {
  private used = 0;
  dropped = 0;

  constructor(readonly limit: number) {}

  get truncated(): boolean {
    return this.dropped > 0;
  }

  take(text: string): string {
    if (!text) return '';
    if (this.dropped > 0) {
      this.dropped += worstCaseBytes(text);
      return '';
    }
    const cost = worstCaseBytes(text);
    if (this.used + cost <= this.limit) {
      this.used += cost;
      return text;
    }
    const kept = prefixWithin(text, this.limit - this.used);
    this.used += kept.cost;
    this.dropped += cost - kept.cost;
    return kept.text;
  }

  note(): string {
    return (
      `\n[output truncated: the cell wrote ${formatBytes(this.dropped)} more than the ${formatBytes(this.limit)} output limit; ` +
      'write large results to a file in the workspace instead]\n'
    );
  }
}

/** Caps a single text (a traceback, a value's repr) with a short note when cut. */
export function capText(text: string, limit: number): string {
  if (worstCaseBytes(text) <= limit) return text;
  const note = `\n[... cut at ${formatBytes(limit)}]`;
  return prefixWithin(text, Math.max(0, limit - worstCaseBytes(note))).text + note;
}
