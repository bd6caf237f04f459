import type { RunRecord } from '../../../src-preload/contract/sessions';
import type { UserCellRecord } from '../../../src-preload/contract/notebook';

/**
 * What the agent is told of the cells the user ran in the Notebook tab (issue 25): they
 * share the session's kernels, so their variables exist (or were changed) when the agent's
 * next cell runs. The latest version of each cell, newest last, with what it printed;
 * cells run since the agent's previous turn are marked new. Bounded, so a long notebook
 * costs a few thousand tokens at most.
 */

const MAX_CELLS = 8;
const MAX_CODE_CHARS = 1500;
const MAX_OUTPUT_CHARS = 800;
const LABEL: Record<string, string> = { python: 'Python', r: 'R' };

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}\n[… ${text.length - max} more characters]` : text);

function describe(cell: UserCellRecord, fresh: boolean): string {
  const r = cell.result;
  const output = [r.stdout, r.stderr].filter(Boolean).join('');
  const outcome = r.error ? `${r.status}: ${r.error.ename}: ${r.error.evalue}` : r.died ? `${r.status}: ${r.died.reason}` : r.status;
  const figures = r.displays.filter((d) => d.path).map((d) => d.path);
  return [
    `### ${fresh ? 'NEW ' : ''}user cell (${LABEL[cell.language] ?? cell.language}, version ${cell.version}, kernel generation ${(cell.generation ?? '').slice(0, 8)}, ${outcome})${cell.evidenceId ? ` evidence ${cell.evidenceId}` : ''}`,
    '```' + cell.language,
    cut(cell.code, MAX_CODE_CHARS),
    '```',
    ...(output ? ['Output:', '```', cut(output, MAX_OUTPUT_CHARS), '```'] : []),
    ...(figures.length ? [`Figures: ${figures.join(', ')}`] : []),
  ].join('\n');
}

/**
 * The note that precedes the user's message in a run's request, or null when the user ran
 * no cell. `runs` are the session's runs (the current one included), to find the previous turn.
 */
export function userCellsNote(cells: readonly UserCellRecord[], runs: readonly RunRecord[], currentRunId: string): string | null {
  if (!cells.length) return null;
  const latest = new Map<string, UserCellRecord>();
  for (const cell of cells) latest.set(cell.cellKey, cell);
  const shown = [...latest.values()].sort((a, b) => (a.finishedAt < b.finishedAt ? -1 : 1)).slice(-MAX_CELLS);
  const previous = runs
    .filter((r) => r.id !== currentRunId && !r.parentRunId && r.startedAt)
    .map((r) => r.startedAt!)
    .sort()
    .at(-1);
  const omitted = latest.size - shown.length;
  return [
    `[The user ran these cells in this session's kernels (Notebook tab); their variables exist there unless the kernel restarted since (see the generation). Cells marked NEW ran since your previous turn.${omitted ? ` ${omitted} older cell(s) not shown.` : ''}]`,
    ...shown.map((cell) => describe(cell, !previous || cell.finishedAt > previous)),
  ].join('\n\n');
}
