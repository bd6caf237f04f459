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
 * Where the value at `path` (object keys and array indexes) starts inside the JSON `text`,
 * or -1 when the path does not exist. Throws on text that is not JSON at this place.
 */
function locate(text: string, path: readonly (string | number)[]): number {
  let i = skipWs(text, 0);
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
      if (found < 0) return -1;
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
      if (found < 0) return -1;
      i = found;
    } else {
      return -1;
    }
  }
  return i;
}

/**
 * The text of the value at `path` (object keys and array indexes) inside the JSON `text`,
 * exactly as it appears there; null when the path does not exist.
 */
export function jsonValueText(text: string, path: readonly (string | number)[]): string | null {
  try {
    const i = locate(text, path);
    return i < 0 ? null : text.slice(i, valueEnd(text, i));
  } catch {
    // Not valid JSON at this place: the caller falls back to hashing the whole event.
    return null;
  }
}

/**
 * The exact text of every member of the object (by key; a duplicate key's last value, as
 * JSON.parse reads it) or element of the array (by index) at `path`, in one pass: asking
 * jsonValueText for each member would rescan the whole text once per member, which on a
 * history answer with hundreds of references takes seconds. Null when there is no object
 * or array there.
 */
export function jsonChildTexts(text: string, path: readonly (string | number)[]): Map<string | number, string> | null {
  try {
    const i = locate(text, path);
    if (i < 0 || (text[i] !== '{' && text[i] !== '[')) return null;
    const isObject = text[i] === '{';
    const close = isObject ? '}' : ']';
    const out = new Map<string | number, string>();
    let j = skipWs(text, i + 1);
    for (let index = 0; text[j] !== close; index++) {
      let name: string | number = index;
      if (isObject) {
        const keyEnd = stringEnd(text, j);
        name = JSON.parse(text.slice(j, keyEnd)) as string;
        j = skipWs(text, keyEnd) + 1;
      }
      const start = skipWs(text, j);
      const end = valueEnd(text, start);
      out.set(name, text.slice(start, end));
      j = skipWs(text, end);
      if (text[j] === ',') j = skipWs(text, j + 1);
      else if (text[j] !== close) throw new Error(`unexpected "${text[j] ?? 'end'}" at ${j}`);
    }
    return out;
  } catch {
    // Not valid JSON at this place: no receipts from it.
    return null;
  }
}
