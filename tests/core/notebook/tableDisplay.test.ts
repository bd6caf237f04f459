/**
 * Issue 25, rich output: a cell whose value is a pandas DataFrame (or Series), or an R
 * data.frame or matrix, sends its data as a table display (TABLE_MIME, worker.py and
 * worker.R) for the app to render itself; never only the kernel's HTML. Large tables are
 * cut by rows to stay valid JSON under the text cap.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../src-main/core/core';

const TABLE_MIME = 'application/vnd.openai4s.table+json';
let core: Core;
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-table-'));
  core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0' } });
});
afterAll(async () => {
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const run = async (code: string, language: 'python' | 'r' = 'python') => {
  const result = await core.kernels.execute('tables', language, code);
  expect(result.error ?? null).toBeNull();
  return result.displays;
};

describe('table displays from the Python kernel', () => {
  it('a DataFrame value carries its columns, dtypes, index and rows (NaN as null) beside its text', async () => {
    const [display] = await run('import pandas as pd, numpy as np\npd.DataFrame({"residue": ["A", "C"], "count": [10, 6], "gravy": [1.8, np.nan]}, index=["x", "y"])');
    expect(display!.data['text/plain']).toContain('residue');
    expect(JSON.parse(display!.data[TABLE_MIME]!)).toEqual({
      columns: ['residue', 'count', 'gravy'],
      dtypes: ['object', 'int64', 'float64'],
      index: ['x', 'y'],
      rows: [
        ['A', 10, 1.8],
        ['C', 6, null],
      ],
      total_rows: 2,
    });
  }, 60_000);

  it('a Series is a one-column table; a large frame is cut by rows and stays valid JSON; other values have none', async () => {
    const [series] = await run('pd.Series([3, 1, 2], name="count")');
    expect(JSON.parse(series!.data[TABLE_MIME]!)).toMatchObject({ columns: ['count'], rows: [[3], [1], [2]], total_rows: 3 });
    const [big] = await run('pd.DataFrame({"id": range(5000), "label": ["residue-%d" % i for i in range(5000)]})');
    const table = JSON.parse(big!.data[TABLE_MIME]!);
    expect(table.total_rows).toBe(5000);
    expect(table.rows.length).toBeGreaterThan(100);
    expect(table.rows.length).toBeLessThan(5000);
    expect(table.rows[0]).toEqual([0, 'residue-0']);
    expect(Buffer.byteLength(big!.data[TABLE_MIME]!)).toBeLessThanOrEqual(56 * 1024);
    const [plain] = await run('{"a": 1}');
    expect(Object.keys(plain!.data)).toEqual(['text/plain']);
  }, 60_000);

  it('an R data.frame value is a table (factors as text, NA as null) beside its printed text, not on stdout; a matrix too; print() stays text', async () => {
    const result = await core.kernels.execute('tables', 'r', 'df <- data.frame(residue = factor(c("A", "C")), count = c(10L, NA), gravy = c(1.8, NaN), ok = c(TRUE, FALSE))\ndf');
    expect(result.error ?? null).toBeNull();
    expect(result.stdout).toBe('');
    const [display] = result.displays;
    expect(display!.data['text/plain']).toMatch(/residue count gravy/);
    expect(JSON.parse(display!.data[TABLE_MIME]!)).toEqual({
      columns: ['residue', 'count', 'gravy', 'ok'],
      dtypes: ['factor', 'integer', 'numeric', 'logical'],
      index: ['1', '2'],
      rows: [
        ['A', 10, 1.8, true],
        ['C', null, null, false],
      ],
      total_rows: 2,
    });
    const [matrix] = await run('m <- matrix(1:4, nrow = 2, dimnames = list(c("x", "y"), c("a", "b")))\nm', 'r');
    expect(JSON.parse(matrix!.data[TABLE_MIME]!)).toEqual({ columns: ['a', 'b'], dtypes: ['integer', 'integer'], index: ['x', 'y'], rows: [[1, 3], [2, 4]], total_rows: 2 });
    // A one-column, one-row frame keeps its arrays (no scalar unboxing); a large one is cut by rows.
    const [one] = await run('data.frame(n = 1)', 'r');
    expect(JSON.parse(one!.data[TABLE_MIME]!)).toEqual({ columns: ['n'], dtypes: ['numeric'], index: ['1'], rows: [[1]], total_rows: 1 });
    const [big] = await run('data.frame(id = 1:5000, label = sprintf("residue-%d", 1:5000))', 'r');
    const table = JSON.parse(big!.data[TABLE_MIME]!);
    expect(table.total_rows).toBe(5000);
    expect(table.rows.length).toBeGreaterThan(100);
    expect(table.rows.length).toBeLessThan(5000);
    expect(table.rows[0]).toEqual([1, 'residue-1']);
    // An explicit print() and other values stay printed text.
    const printed = await core.kernels.execute('tables', 'r', 'print(df)\nc(a = 1)');
    expect(printed.displays).toEqual([]);
    expect(printed.stdout).toMatch(/residue count gravy[\s\S]*a\s+1/);
  }, 60_000);
});
