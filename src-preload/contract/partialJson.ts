/**
 * The live view of a tool's JSON arguments while they stream, for the pure fold (imports
 * nothing). Everything here is linear in the text: a model can stream megabytes of
 * arguments in pieces of a few characters, and re-parsing the whole text on every piece
 * made a 1 MiB argument take minutes to fold.
 */

/** Where streamed JSON text stands, updated one delta at a time (never rescanning the text). */
export interface JsonScan {
  readonly depth: number;
  readonly inString: boolean;
  readonly escaped: boolean;
  /** True once the top-level object or array has closed. */
  readonly closed: boolean;
  /** True when the last delta closed it (the first time only, and nothing but space followed). */
  readonly closedTopLevel: boolean;
}

export const initialJsonScan: JsonScan = Object.freeze({ depth: 0, inString: false, escaped: false, closed: false, closedTopLevel: false });

/**
 * Advances the scan over one delta: O(delta). Only the first close of the top level counts:
 * text after it is not JSON anyway, and `{}{}{}...` must not trigger a parse per delta.
 */
export function scanJsonDelta(scan: JsonScan, delta: string): JsonScan {
  let { depth, inString, escaped, closed } = scan;
  let closedTopLevel = false;
  for (let i = 0; i < delta.length; i++) {
    const ch = delta[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if ((ch === '}' || ch === ']') && depth > 0) {
      depth--;
      closedTopLevel = depth === 0 && !closed;
      if (depth === 0) closed = true;
      continue;
    }
    if (/\s/.test(ch)) continue;
    closedTopLevel = false;
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
  }
  return { depth, inString, escaped, closed, closedTopLevel };
}

/** Arguments up to this length are re-parsed on every delta (cheap, and the live view is exact). */
export const PARTIAL_PARSE_EVERY_DELTA_UP_TO = 4096;
/** Past that, they are re-parsed once they have grown by this fraction since the last parse. */
export const PARTIAL_PARSE_GROWTH = 1 / 8;

/**
 * Whether a tool's streamed arguments, now `length` long and last parsed at `parsedAt`, are
 * parsed again. Re-parsing the whole text on every delta is quadratic (a 1 MiB argument in
 * small deltas took minutes to fold); parsing at geometric steps keeps the total linear (at
 * most 9x the text past the small prefix) while the live view lags by at most an eighth.
 * It depends only on the chunks, never on how they were batched, so the live fold and the
 * replay of the ledger still agree chunk for chunk.
 */
export function partialParseDue(parsedAt: number, length: number): boolean {
  return length <= PARTIAL_PARSE_EVERY_DELTA_UP_TO || length - parsedAt >= parsedAt * PARTIAL_PARSE_GROWTH;
}

/** Where `text.slice(0, end)` ends once trailing whitespace is dropped (a linear scan; a `\s*$` regex can be quadratic). */
function trimEnd(text: string, end = text.length): number {
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  return end;
}

/** Drops a dangling `,` or `:` at the end (what `/[,:]\s*$/` removed). */
function withoutDanglingSeparator(body: string): string {
  const end = trimEnd(body);
  return end > 0 && (body[end - 1] === ',' || body[end - 1] === ':') ? body.slice(0, end - 1) : body;
}

/** Drops a trailing unfinished key, `, "key"` or `, "key":` (what `/,?\s*"[^"]*"\s*:?\s*$/` removed). */
function withoutDanglingKey(body: string): string {
  let i = trimEnd(body);
  if (i > 0 && body[i - 1] === ':') i = trimEnd(body, i - 1);
  if (i < 2 || body[i - 1] !== '"') return body;
  const open = body.lastIndexOf('"', i - 2);
  if (open < 0) return body;
  let start = trimEnd(body, open);
  if (start > 0 && body[start - 1] === ',') start--;
  return body.slice(0, start);
}

/** Best-effort view of a tool's partial JSON arguments while they stream; undefined if none. Linear in the text. */
export function parsePartialJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // fall through: close what is open
  }
  const closers: string[] = [];
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') closers.push('}');
    else if (ch === '[') closers.push(']');
    else if (ch === '}' || ch === ']') closers.pop();
  }
  let body = escaped ? text.slice(0, -1) : text;
  if (inString) body += '"';
  const close = closers.reverse().join('');
  for (const candidate of [body, withoutDanglingSeparator(body), withoutDanglingKey(body)]) {
    try {
      return JSON.parse(candidate + close);
    } catch {
      // try the next repair
    }
  }
  return undefined;
}
