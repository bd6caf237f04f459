import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(__filename).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** Each failing element: its selector and axe's summary of why. */
  nodes: { target: string; summary: string }[];
}

/**
 * Runs axe-core (its source evaluated in the page, so the app's CSP is not loosened for
 * it) over the page as it is now, with the WCAG 2.x A/AA rules (contrast, names, roles,
 * labels) plus best practices, and answers the serious and critical violations.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate(`window.axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    resultTypes: ['violations'],
  }).then((r) => r.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: (n.failureSummary || '').split('\\n').slice(0, 3).join(' ') })),
  })))`)) as AxeViolation[];
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** A readable list of violations for a failing assertion. */
export function describeViolations(list: AxeViolation[]): string {
  return list.map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.slice(0, 5).map((n) => `  ${n.target}: ${n.summary}`).join('\n')}`).join('\n');
}
