import type { CellData, CellOutputPiece } from './dataParts';
import type { KernelCellResult } from './kernel';

/**
 * A finished cell as its `data-cell` part (and the cell card) shows it: the one mapping from
 * a kernel's result, used by the agent's cells in main (runner/kernelCells.ts) and by the
 * user's Notebook cells in the renderer. Pure and dependency-free (the renderer imports it).
 * `output` is the order both streams wrote in, when it adds up to the final texts.
 */
export function cellDataOfResult(code: string, result: KernelCellResult, output?: CellOutputPiece[]): CellData {
  return {
    language: result.language,
    code,
    status: result.status,
    generation: result.generation,
    cellNumber: result.cellNumber,
    stdout: result.stdout,
    stderr: result.stderr,
    ...(output ? { output } : {}),
    displays: result.displays,
    error: result.error ?? null,
    usage: result.usage ?? null,
    truncated: result.truncated,
    sandbox: result.sandbox,
    died: result.died ?? null,
    ...(result.timeLimit ? { timeLimit: result.timeLimit } : {}),
  };
}
