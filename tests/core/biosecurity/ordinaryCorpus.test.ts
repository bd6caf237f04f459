import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CellReviewer } from '../../../src-main/core/biosecurity/cellReview/cellReviewer';
import { PythonReviewer } from '../../../src-main/core/biosecurity/cellReview/pythonReviewer';
import { reviewerInterpreter } from '../../../src-main/core/biosecurity/posture';
import { prescan, trips } from '../../../src-main/core/biosecurity/prescan';
import { sequenceConcern } from '../../../src-main/core/biosecurity/sequenceCheck';

/** tests/fixtures/ordinary-cells (see its README): everyday analysis cells that must never be flagged. */
const root = path.resolve('tests/fixtures/ordinary-cells');
const cells = (['python', 'r'] as const).flatMap((language) =>
  fs
    .readdirSync(path.join(root, language))
    .sort()
    .map((file) => ({ language, file, code: fs.readFileSync(path.join(root, language, file), 'utf8') })),
);

const interpreter = reviewerInterpreter(process.env).path ?? '/usr/bin/python3';
const python = new PythonReviewer({ interpreter, workersDir: path.resolve('kernel-workers'), pathVar: process.env.PATH ?? '/usr/bin:/bin' });
const reviewer = new CellReviewer(python);
afterAll(() => python.stop());

describe('the ordinary-cell corpus (calibration)', () => {
  it('has at least 50 cells in Python and R', () => {
    expect(cells.length).toBeGreaterThanOrEqual(50);
    expect(cells.filter((c) => c.language === 'r').length).toBeGreaterThanOrEqual(10);
  });

  it.each(cells.map((c) => [`${c.language}/${c.file}`, c] as const))('%s passes the pre-execution review unflagged', async (_name, cell) => {
    const review = await reviewer.review(cell.language, cell.code);
    expect(review.findings).toEqual([]);
    expect(review.verdict).toBe('low');
    // Python cells are read by the parser itself, not by the fallback.
    expect(review.reviewer).toBe(cell.language === 'python' ? 'ast' : 'token-scan');
  });

  it.each(cells.map((c) => [`${c.language}/${c.file}`, c] as const))('%s never trips the biosecurity pre-scan or the sequence check', (_name, cell) => {
    expect(trips(prescan(cell.code))).toBe(false);
    expect(sequenceConcern({ step: cell.code, userText: '' })).toBeNull();
  });
});
