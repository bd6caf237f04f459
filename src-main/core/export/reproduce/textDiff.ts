/**
 * What changed between a recorded text (an artifact, a cell's printed output) and its
 * recomputation: a line diff for text, a cell diff for CSV/TSV tables. Bounded: at most
 * `maxLines` lines of diff, so a rewritten 100 MB file gives a short report.
 */

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of bytes that are UTF-8 with no NUL, else null (binary). */
export function asText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return utf8.decode(bytes);
  } catch {
    // Not UTF-8: a binary file, compared by hash only.
    return null;
  }
}

/** Longest-common-subsequence line diff in `-`/`+`/` ` lines; positional when too large for the table. */
export function lineDiff(recorded: string, recomputed: string, maxLines = 40): string[] {
  const a = recorded.split('\n');
  const b = recomputed.split('\n');
  // Common head and tail cost nothing: only the middle goes through the LCS table.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const out: string[] = [];
  const push = (line: string) => out.length < maxLines && out.push(line);
  if (head) push(`@@ line ${head + 1} @@`);
  if (midA.length * midB.length > 4_000_000) {
    for (const line of midA) push(`-${line}`);
    for (const line of midB) push(`+${line}`);
  } else {
    const n = midA.length;
    const m = midB.length;
    const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i]![j] = midA[i] === midB[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        push(` ${midA[i]}`);
        i++;
        j++;
      } else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) push(`-${midA[i++]}`);
      else push(`+${midB[j++]}`);
    }
  }
  if (out.length >= maxLines) out.push('… (diff cut)');
  return out;
}

/** One CSV/TSV row split on its delimiter, with "quoted, fields" kept whole. */
function splitRow(line: string, delimiter: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delimiter) {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}

/** The cells of a table that changed, named by row number and column header. */
export function tableDiff(recorded: string, recomputed: string, delimiter: ',' | '\t', maxLines = 40): string[] {
  const rows = (text: string) => text.replace(/\r?\n$/, '').split(/\r?\n/).map((l) => splitRow(l, delimiter));
  const a = rows(recorded);
  const b = rows(recomputed);
  const header = a[0] ?? [];
  const out: string[] = [];
  if (a.length !== b.length) out.push(`rows: ${a.length - 1} recorded, ${b.length - 1} recomputed (header excluded)`);
  if ((b[0] ?? []).join('\u0000') !== header.join('\u0000')) out.push(`header: ${JSON.stringify(header)} recorded, ${JSON.stringify(b[0] ?? [])} recomputed`);
  for (let r = 1; r < Math.min(a.length, b.length) && out.length < maxLines; r++) {
    const width = Math.max(a[r]!.length, b[r]!.length);
    for (let c = 0; c < width && out.length < maxLines; c++) {
      const was = a[r]![c];
      const now = b[r]![c];
      if (was !== now) out.push(`row ${r}, column ${JSON.stringify(header[c] ?? String(c + 1))}: ${JSON.stringify(was ?? null)} -> ${JSON.stringify(now ?? null)}`);
    }
  }
  if (out.length >= maxLines) out.push('… (diff cut)');
  return out;
}

/** The diff suited to a file: a table diff for .csv/.tsv, else a line diff. */
export function fileDiff(name: string, recorded: string, recomputed: string): { kind: 'table' | 'text'; lines: string[] } {
  const lower = name.toLowerCase();
  if (lower.endsWith('.csv')) return { kind: 'table', lines: tableDiff(recorded, recomputed, ',') };
  if (lower.endsWith('.tsv')) return { kind: 'table', lines: tableDiff(recorded, recomputed, '\t') };
  return { kind: 'text', lines: lineDiff(recorded, recomputed) };
}
