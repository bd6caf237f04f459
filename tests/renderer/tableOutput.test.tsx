/** A DataFrame display (issue 25): a real table from the kernel's data, sortable, paged, copyable; malformed data falls back to text. */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TableOutput, parseTable, tableTsv, type TableData } from '../../src-renderer/src/components/parts/TableOutput';
import { bridge } from '../../src-renderer/src/api/bridge';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { memoryStorage } from './support';

const withStore = (node: React.ReactNode) => <StoreProvider store={createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] })}>{node}</StoreProvider>;

afterEach(cleanup);

const TABLE: TableData = {
  columns: ['residue', 'count'],
  dtypes: ['object', 'int64'],
  index: Array.from({ length: 30 }, (_, i) => String(i)),
  rows: Array.from({ length: 30 }, (_, i) => [`R${String(i).padStart(2, '0')}`, (i * 7) % 30]),
  total_rows: 5000,
};

describe('TableOutput', () => {
  it('parses only well-formed tables', () => {
    expect(parseTable(JSON.stringify(TABLE))).toEqual(TABLE);
    expect(parseTable('{"columns":["a"],"rows":[[1,2]],"index":["0"],"total_rows":1}')).toBeNull();
    expect(parseTable('{"columns":["a"],"rows":[[1]],"index":["0"],"total_rows":1}\n[... cut at 64 KiB]')).toBeNull();
  });

  it('sorts by a column header (ascending, then descending), pages by 25 rows, and says the table was cut', () => {
    render(withStore(<TableOutput table={TABLE} />));
    const firstCells = () => screen.getAllByTestId('table-row').map((r) => within(r).getAllByRole('cell')[1]!.textContent);
    expect(screen.getAllByTestId('table-row')).toHaveLength(25);
    expect(screen.getByTestId('table-range').textContent).toBe('rows 1–25 of 30 · the first 30 of 5000 rows');
    const [, count] = screen.getAllByTestId('table-sort');
    fireEvent.click(count!);
    expect(firstCells().slice(0, 3)).toEqual(['0', '1', '2']);
    expect(count!.closest('th')!.getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(count!);
    expect(firstCells().slice(0, 2)).toEqual(['29', '28']);
    fireEvent.click(screen.getByTestId('table-next'));
    expect(screen.getAllByTestId('table-row')).toHaveLength(5);
    expect(screen.getByTestId('table-range').textContent).toMatch(/^rows 26–30 of 30/);
  });

  it('copies the rows as tab-separated text in the order shown', () => {
    const small: TableData = { columns: ['a', 'b c'], dtypes: [], index: ['x', 'y'], rows: [[2, 'two\twords'], [1, null]], total_rows: 2 };
    expect(tableTsv(small, [1, 0])).toBe('\ta\tb c\ny\t1\t\nx\t2\ttwo words');
  });
});
