import { useMemo, useState } from 'react';
import { useT } from '../../i18n/useT';
import '../../styles/table.css';
import { Icon } from '../icons';

/** The kernel's table display (worker.py TABLE_MIME): data only; the kernel's HTML is never rendered. */
export const TABLE_MIME = 'application/vnd.openai4s.table+json';
const PAGE_ROWS = 25;

type Cell = string | number | boolean | null;

export interface TableData {
  columns: string[];
  dtypes: string[];
  index: string[];
  rows: Cell[][];
  /** Rows of the whole table; `rows` may hold only the first ones. */
  total_rows: number;
}

/** The table of a display, or null when it is not a well-formed one (the text form is shown instead). */
export function parseTable(text: string | undefined): TableData | null {
  if (!text) return null;
  try {
    const t = JSON.parse(text) as Partial<TableData>;
    if (!Array.isArray(t.columns) || !Array.isArray(t.rows) || !Array.isArray(t.index) || typeof t.total_rows !== 'number') return null;
    if (!t.rows.every((r) => Array.isArray(r) && r.length === t.columns!.length)) return null;
    return { columns: t.columns.map(String), dtypes: Array.isArray(t.dtypes) ? t.dtypes.map(String) : [], index: t.index.map(String), rows: t.rows as Cell[][], total_rows: t.total_rows };
  } catch {
    // Cut or malformed: the caller falls back to the value's text form.
    return null;
  }
}

const show = (v: Cell) => (v === null ? '' : String(v));

function compare(a: Cell, b: Cell): number {
  if (a === b) return 0;
  if (a === null) return 1; // empty cells last, either direction
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true });
}

/** Tab-separated, with a header row: pastes into a spreadsheet as cells. */
export function tableTsv(table: TableData, order: number[]): string {
  const clean = (s: string) => s.replace(/[\t\r\n]+/g, ' ');
  return [['', ...table.columns].map(clean).join('\t'), ...order.map((i) => [table.index[i] ?? '', ...table.rows[i]!.map(show)].map(clean).join('\t'))].join('\n');
}

/** A DataFrame as a real table: sort by a column (click its header), pages of 25 rows, copy as TSV. */
export function TableOutput({ table }: { table: TableData }) {
  const t = useT();
  const [sort, setSort] = useState<{ column: number; descending: boolean } | null>(null);
  const [page, setPage] = useState(0);
  const [copied, setCopied] = useState(false);
  const order = useMemo(() => {
    const rows = table.rows.map((_, i) => i);
    if (!sort) return rows;
    const sign = sort.descending ? -1 : 1;
    // Stable: equal values keep the kernel's order.
    return rows.sort((a, b) => sign * compare(table.rows[a]![sort.column]!, table.rows[b]![sort.column]!) || a - b);
  }, [table, sort]);
  const pages = Math.max(1, Math.ceil(order.length / PAGE_ROWS));
  const current = Math.min(page, pages - 1);
  const shown = order.slice(current * PAGE_ROWS, (current + 1) * PAGE_ROWS);
  return (
    <div className="table-output" data-testid="table-output">
      <div className="table-output-bar small muted">
        <span data-testid="table-range">
          {t('table.rows', { from: order.length ? current * PAGE_ROWS + 1 : 0, to: current * PAGE_ROWS + shown.length, count: order.length })}
          {table.total_rows > table.rows.length ? ` · ${t('table.truncated', { shown: table.rows.length, total: table.total_rows })}` : ''}
        </span>
        <span className="grow" />
        <button type="button" className="btn btn-ghost" disabled={current === 0} onClick={() => setPage(current - 1)} data-testid="table-prev">
          {t('table.prev')}
        </button>
        <button type="button" className="btn btn-ghost" disabled={current >= pages - 1} onClick={() => setPage(current + 1)} data-testid="table-next">
          {t('table.next')}
        </button>
        <button
          type="button"
          className="btn btn-ghost"
          data-testid="table-copy"
          onClick={() => void navigator.clipboard?.writeText(tableTsv(table, order)).then(() => setCopied(true))}
        >
          {copied ? t('table.copied') : t('table.copy')}
        </button>
      </div>
      <div className="table-scroll">
        <table className="data-table mono small">
          <thead>
            <tr>
              <th />
              {table.columns.map((column, c) => {
                const active = sort?.column === c;
                return (
                  <th key={c} aria-sort={active ? (sort!.descending ? 'descending' : 'ascending') : 'none'} title={table.dtypes[c]}>
                    <button
                      type="button"
                      className="table-sort"
                      data-testid="table-sort"
                      aria-label={t('table.sortBy', { column })}
                      onClick={() => {
                        setSort(active && !sort!.descending ? { column: c, descending: true } : { column: c, descending: false });
                        setPage(0);
                      }}
                    >
                      {column}
                      {active ? <Icon name={sort!.descending ? 'sortDown' : 'sortUp'} size={12} /> : null}
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {shown.map((i) => (
              <tr key={i} data-testid="table-row">
                <th scope="row" className="muted">
                  {table.index[i]}
                </th>
                {table.rows[i]!.map((v, c) => (
                  <td key={c} className={typeof v === 'number' ? 'num' : undefined}>
                    {show(v)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
