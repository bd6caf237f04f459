/**
 * Issue 25, rich output: a cell whose value is a pandas DataFrame (or Series) sends its
 * data as a table display (worker.py TABLE_MIME) for the app to render itself; never only
 * the kernel's HTML. Large tables are cut by rows to stay valid JSON under the text cap.
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

const run = async (code: string) => {
  const result = await core.kernels.execute('tables', 'python', code);
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
});
