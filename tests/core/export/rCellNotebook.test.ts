/**
 * An R cell in the exported notebook (whose kernel is Python) is markdown: its code and
 * what it printed, where a table value (an R data.frame sent as a table display, issue 25)
 * counts as printed output, and the metadata `openai4s reproduce` needs to run it again.
 */
import { describe, expect, it } from 'vitest';
import type { UIMessage } from '../../../src-preload/contract/stream';
import { sessionNotebook, type CellData } from '../../../src-main/core/export/notebook';

const TABLE_MIME = 'application/vnd.openai4s.table+json';

describe('an R cell in the exported notebook', () => {
  it('shows its code and its recorded output, a data.frame value included, and keeps its code and stdout for reproduce', () => {
    const cell: CellData = {
      language: 'r',
      code: 'cat("rows:", 2, "\\n")\ndf',
      status: 'ok',
      generation: 'gen-r',
      stdout: 'rows: 2 \n',
      displays: [{ data: { 'text/plain': '  residue count\n1       A    10\n2       C     6', [TABLE_MIME]: '{"columns":["residue","count"]}' } }],
    };
    const messages = [{ id: 'm1', role: 'assistant', parts: [{ type: 'data-cell', id: 'c1', data: cell }] }] as unknown as UIMessage[];
    const notebook = sessionNotebook('R table', messages, () => null) as { cells: { cell_type: string; source: string[]; metadata: { openai4s?: Record<string, unknown> } }[] };
    const r = notebook.cells.find((c) => c.metadata.openai4s?.language === 'r')!;
    expect(r.cell_type).toBe('markdown');
    const text = r.source.join('');
    expect(text).toContain('```r\ncat("rows:", 2, "\\n")\ndf\n```');
    expect(text).toContain('Recorded output:\n\n```\nrows: 2 \n  residue count\n1       A    10\n2       C     6\n```');
    expect(text).not.toContain('columns');
    expect(r.metadata.openai4s).toMatchObject({ language: 'r', code: cell.code, stdout: 'rows: 2 \n', figures: [] });
  });
});
