/**
 * Where a value sits in a JSON text, so its exact bytes as received can be hashed (a
 * reference record's sha256 is of the bytes the navigator sent, not of our re-serialisation,
 * which could differ in key order, spacing or escapes). A small scanner over already-valid
 * JSON (the caller parsed it first): it skips values without building them.
 */

const WS = new Set([' ', '\t', '\n', '\r']);

function skipWs(text: string, i: number): number {
  while (i < text.length && WS.has(text[i]!)) i++;
  return i;
}

function stringEnd(text: string, i: number): number {
  // text[i] is the opening quote.
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === '\\') j++;
    else if (c === '"') return j + 1;
  }
  throw new Error('unterminated string');
}

/** The index just after the value starting at `i` (after whitespace). */
function valueEnd(text: string, i: number): number {
  i = skipWs(text, i);
  const c = text[i];
  if (c === '"') return stringEnd(text, i);
  if (c === '{' || c === '[') {
    const close = c === '{' ? '}' : ']';
    let j = skipWs(text, i + 1);
    if (text[j] === close) return j + 1;
    for (;;) {
      if (c === '{') {
        j = skipWs(text, stringEnd(text, skipWs(text, j)));
        j++; // the colon
      }
      j = skipWs(text, valueEnd(text, j));
      if (text[j] === ',') {
        j++;
        continue;
      }
      if (text[j] === close) return j + 1;
      throw new Error(`unexpected "${text[j] ?? 'end'}" at ${j}`);
    }
  }
  // A number, true, false or null: up to the next delimiter.
  let j = i;
  while (j < text.length && !WS.has(text[j]!) && text[j] !== ',' && text[j] !== '}' && text[j] !== ']') j++;
  return j;
}

/**
 * The text of the value at `path` (object keys and array indexes) inside the JSON `text`,
 * exactly as it appears there; null when the path does not exist.
 */
export function jsonValueText(text: string, path: readonly (string | number)[]): string | null {
  let i = skipWs(text, 0);
  try {
    for (const step of path) {
      const c = text[i];
      if (c === '{' && typeof step === 'string') {
        let j = skipWs(text, i + 1);
        let found = -1;
        while (text[j] !== '}') {
          const keyEnd = stringEnd(text, j);
          const key = JSON.parse(text.slice(j, keyEnd)) as string;
          j = skipWs(text, keyEnd) + 1;
          const start = skipWs(text, j);
          // Duplicate keys: JSON.parse keeps the last one, so the last one is what was read.
          if (key === step) found = start;
          j = skipWs(text, valueEnd(text, start));
          if (text[j] === ',') j = skipWs(text, j + 1);
        }
        if (found < 0) return null;
        i = found;
      } else if (c === '[' && typeof step === 'number') {
        let j = skipWs(text, i + 1);
        let index = 0;
        let found = -1;
        while (text[j] !== ']') {
          if (index === step) found = j;
          j = skipWs(text, valueEnd(text, j));
          if (text[j] === ',') j = skipWs(text, j + 1);
          index++;
        }
        if (found < 0) return null;
        i = found;
      } else {
        return null;
      }
    }
    return text.slice(i, valueEnd(text, i));
  } catch {
    // Not valid JSON at this place: the caller falls back to hashing the whole event.
    return null;
  }
}
