import fs from 'node:fs';
import path from 'node:path';
import { CellReviewer } from '../../src-main/core/biosecurity/cellReview/cellReviewer';
import { PythonReviewer } from '../../src-main/core/biosecurity/cellReview/pythonReviewer';
import { reviewerInterpreter } from '../../src-main/core/biosecurity/posture';
import { prescan, trips } from '../../src-main/core/biosecurity/prescan';
import type { BenchRow, BenchSuite } from '../types';

/**
 * The pre-execution review of issue 27 sits in front of every cell, so it must be fast:
 * a 500-line cell (ordinary science code from tests/fixtures/ordinary-cells, repeated)
 * through the warm ast reviewer and through the R token scan, the first review (which
 * starts the reviewer process), and the biosecurity pre-scan over the same text.
 */
const corpus = path.resolve('tests/fixtures/ordinary-cells');

function cellOf(language: 'python' | 'r', lines: number): string {
  const dir = path.join(corpus, language);
  const source = fs.readdirSync(dir).sort().map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n').split('\n');
  const out: string[] = [];
  while (out.length < lines) out.push(...source);
  return out.slice(0, lines).join('\n');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const suite: BenchSuite = {
  name: 'cell-review',
  async run(): Promise<BenchRow[]> {
    const python = cellOf('python', 500);
    const r = cellOf('r', 500);
    const interpreter = reviewerInterpreter(process.env).path;
    if (!interpreter) throw new Error('No Python interpreter for the ast reviewer; install python3 (see envs/python-default.json).');
    const reviewerProcess = new PythonReviewer({ interpreter, workersDir: path.resolve('kernel-workers'), pathVar: process.env.PATH ?? '/usr/bin:/bin' });
    const reviewer = new CellReviewer(reviewerProcess);
    try {
      const first = performance.now();
      const cold = await reviewer.review('python', python);
      const coldMs = performance.now() - first;
      if (cold.verdict !== 'low' || cold.reviewer !== 'ast') throw new Error(`the 500-line ordinary cell was flagged or not read by ast: ${JSON.stringify(cold.findings.slice(0, 3))} ${cold.note ?? ''}`);
      const warm: number[] = [];
      for (let i = 0; i < 20; i++) warm.push((await reviewer.review('python', python)).durationMs);
      const rTimes: number[] = [];
      for (let i = 0; i < 20; i++) rTimes.push((await reviewer.review('r', r)).durationMs);
      const scan: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        trips(prescan(python));
        scan.push(performance.now() - t);
      }
      const warmMs = median(warm);
      return [
        { metric: 'review of a 500-line Python cell, warm ast reviewer (median of 20)', value: warmMs, unit: 'ms', target: '≤ 100 ms', met: warmMs <= 100 },
        { metric: 'first review (starts the reviewer process)', value: coldMs, unit: 'ms', target: '≤ 500 ms', met: coldMs <= 500 },
        { metric: 'review of a 500-line R cell, token scan (median of 20)', value: median(rTimes), unit: 'ms', target: '≤ 20 ms', met: median(rTimes) <= 20 },
        { metric: 'biosecurity pre-scan of the same 500 lines (median of 20)', value: median(scan), unit: 'ms', target: '≤ 20 ms', met: median(scan) <= 20 },
      ];
    } finally {
      reviewerProcess.stop();
    }
  },
};
export default suite;
