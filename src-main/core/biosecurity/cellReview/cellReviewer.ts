import { errorMessage } from '../../shared/errorMessage';
import type { PythonReviewer } from './pythonReviewer';
import { scanPython, scanR } from './tokenScan';
import { lineText, uniqueFindings, type CellReview, type ReviewFinding } from './types';

/**
 * Reviews a cell before it runs: Python through its own parser (the warm ast reviewer),
 * R (and Python the parser cannot read) through the token scan. Any finding makes the
 * verdict high. The review never fails open: when ast cannot answer, the token scan does.
 */
export class CellReviewer {
  constructor(private readonly python: Pick<PythonReviewer, 'review'> | null) {}

  async review(language: 'python' | 'r', code: string): Promise<CellReview> {
    const started = performance.now();
    const done = (findings: ReviewFinding[], reviewer: CellReview['reviewer'], note?: string): CellReview => ({
      language,
      verdict: findings.length ? 'high' : 'low',
      findings,
      reviewer,
      ...(note ? { note } : {}),
      durationMs: performance.now() - started,
    });
    if (language === 'r') return done(scanR(code), 'token-scan');
    if (!this.python) return done(scanPython(code), 'token-scan', 'no Python interpreter for the ast reviewer');
    try {
      const answer = await this.python.review(code);
      if (answer.ok) return done(uniqueFindings(answer.findings.map((f) => ({ ...f, text: lineText(code, f.line) }))), 'ast');
      return done(scanPython(code), 'token-scan', `ast could not read the cell (${answer.error})`);
    } catch (error) {
      return done(scanPython(code), 'token-scan', errorMessage(error));
    }
  }
}
