/**
 * A small, strict `.env` reader: `KEY=value`, optional `export `, `#` comments,
 * single quotes (literal) and double quotes (with \n, \t, \" and \\ escapes).
 * Lines it cannot read are reported, not guessed at.
 */
export interface DotenvResult {
  values: Record<string, string>;
  problems: string[];
}

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function parseDotenv(text: string): DotenvResult {
  const values: Record<string, string> = {};
  const problems: string[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const body = line.startsWith('export ') ? line.slice(7).trimStart() : line;
    const eq = body.indexOf('=');
    const key = eq > 0 ? body.slice(0, eq).trim() : '';
    if (!KEY.test(key)) {
      problems.push(`line ${index + 1}: expected KEY=value`);
      return;
    }
    const value = readValue(body.slice(eq + 1).trim());
    if (value === null) {
      problems.push(`line ${index + 1}: unterminated quote in ${key}`);
      return;
    }
    values[key] = value;
  });
  return { values, problems };
}

function readValue(rest: string): string | null {
  const quote = rest[0];
  if (quote === "'" || quote === '"') {
    const end = rest.indexOf(quote, 1);
    let close = end;
    if (quote === '"') {
      close = -1;
      for (let i = 1; i < rest.length; i++) {
        if (rest[i] === '\\') i++;
        else if (rest[i] === '"') {
          close = i;
          break;
        }
      }
    }
    if (close < 0) return null;
    const inner = rest.slice(1, close);
    return quote === "'" ? inner : unescape(inner);
  }
  // Unquoted: an inline comment starts at " #".
  const hash = rest.search(/\s#/);
  return (hash >= 0 ? rest.slice(0, hash) : rest).trim();
}

function unescape(s: string): string {
  return s.replace(/\\([nrt"\\])/g, (_m, c: string) =>
    c === 'n' ? '\n' : c === 'r' ? '\r' : c === 't' ? '\t' : c,
  );
}
