import { randomUUID } from 'node:crypto';
import type { KernelCellResult, KernelLanguage } from '../../../../src-preload/contract/kernel';
import type { KernelSupervisor } from '../../kernel/supervisor';
import { readWorkspaceFile } from '../../workspace/safeFs';
import { errorMessage } from '../../shared/errorMessage';

/** A cell of the exported notebook to run again, with what the session recorded of it. */
export interface NotebookCell {
  /** 1-based among the session's cells (the setup cell is not one). */
  index: number;
  language: KernelLanguage;
  code: string;
  generation: string | null;
  recordedStatus: string;
  recordedStdout: string | null;
  /** The exported figure files this cell showed, in order (PNG). */
  figures: string[];
  /** The SVG file exported beside each of those figures, if any (same order). */
  svgFigures: (string | null)[];
  /** The PDF file exported beside each of those figures, if any (same order). */
  pdfFigures: (string | null)[];
}

interface JsonCell {
  cell_type?: string;
  source?: string[] | string;
  metadata?: {
    openai4s?: { setup?: boolean; language?: string; status?: string; generation?: string | null; code?: string; stdout?: string; figures?: string[]; svgFigures?: (string | null)[]; pdfFigures?: (string | null)[] };
  };
  outputs?: { output_type?: string; name?: string; text?: string[] | string; metadata?: Record<string, unknown> }[];
}

/** Per figure output (one with an exported PNG file), the vector file exported beside it under `key`, or null. */
function vectorFiles(outputs: NonNullable<JsonCell['outputs']>, key: string): (string | null)[] {
  return outputs.filter((o) => typeof o.metadata?.['openai4s/file'] === 'string').map((o) => (typeof o.metadata?.[key] === 'string' ? (o.metadata[key] as string) : null));
}

const joined = (text: string[] | string | undefined) => (Array.isArray(text) ? text.join('') : (text ?? ''));

/** The session's cells in an exported notebook: Python code cells (not the setup cell) and the R cells shown as markdown. */
export function notebookCells(notebook: unknown): NotebookCell[] {
  const cells = ((notebook as { cells?: JsonCell[] })?.cells ?? []) as JsonCell[];
  const out: NotebookCell[] = [];
  for (const cell of cells) {
    const meta = cell.metadata?.openai4s;
    if (!meta || meta.setup) continue;
    if (cell.cell_type === 'code' && (meta.language ?? 'python') === 'python') {
      const outputs = cell.outputs ?? [];
      out.push({
        index: out.length + 1,
        language: 'python',
        code: joined(cell.source),
        generation: meta.generation ?? null,
        recordedStatus: meta.status ?? 'ok',
        recordedStdout: outputs.filter((o) => o.output_type === 'stream' && o.name === 'stdout').map((o) => joined(o.text)).join(''),
        figures: outputs.map((o) => o.metadata?.['openai4s/file']).filter((f): f is string => typeof f === 'string'),
        svgFigures: vectorFiles(outputs, 'openai4s/svgFile'),
        pdfFigures: vectorFiles(outputs, 'openai4s/pdfFile'),
      });
    } else if (cell.cell_type === 'markdown' && meta.language === 'r' && typeof meta.code === 'string') {
      const figures = meta.figures ?? [];
      const aligned = (files: (string | null)[] | undefined) => figures.map((_, i) => files?.[i] ?? null);
      out.push({ index: out.length + 1, language: 'r', code: meta.code, generation: meta.generation ?? null, recordedStatus: meta.status ?? 'ok', recordedStdout: meta.stdout ?? null, figures, svgFigures: aligned(meta.svgFigures), pdfFigures: aligned(meta.pdfFigures) });
    }
  }
  return out;
}

/** A figure's vector file the replay wrote, read at once (null bytes: gone when read). */
export interface ReplayedFile {
  path: string;
  bytes: Uint8Array | null;
}

/** A cell run again: its result (or why it could not run) and the figure files it left, read at once. */
export interface ReplayedCell {
  cell: NotebookCell;
  result: KernelCellResult | null;
  failure?: string;
  figures: { path: string; bytes: Uint8Array | null; svg: ReplayedFile | null; pdf: ReplayedFile | null }[];
}

/**
 * Runs the cells in order in a fresh session of `supervisor` (its own kernels, its own
 * workspace). Where the session restarted a kernel between two cells (a new generation),
 * the replay restarts it too, so a cell never sees variables its original did not have.
 */
export async function replayCells(
  supervisor: KernelSupervisor,
  cells: readonly NotebookCell[],
  options: { timeoutMs: number; onCell?: (cell: NotebookCell, result: ReplayedCell) => void },
): Promise<ReplayedCell[]> {
  const sessionId = `reproduce-${randomUUID()}`;
  const workspace = supervisor.workspaceFor(sessionId);
  const generations = new Map<KernelLanguage, string | null>();
  const replayed: ReplayedCell[] = [];
  try {
    for (const cell of cells) {
      const previous = generations.get(cell.language);
      if (previous !== undefined && previous !== cell.generation) await supervisor.restart(sessionId, cell.language);
      generations.set(cell.language, cell.generation);
      let entry: ReplayedCell;
      try {
        const result = await supervisor.execute(sessionId, cell.language, cell.code, { timeoutMs: options.timeoutMs, timeLimitHint: 'run `openai4s reproduce` with a larger --timeout' });
        const read = (rel: string) => {
          try {
            return new Uint8Array(readWorkspaceFile(workspace, rel).bytes);
          } catch {
            // Removed by a later write of the cell: reported as not recomputed.
            return null;
          }
        };
        const figures = result.displays.flatMap((d): ReplayedCell['figures'] =>
          d.path
            ? [{ path: d.path, bytes: read(d.path), svg: d.svgPath ? { path: d.svgPath, bytes: read(d.svgPath) } : null, pdf: d.pdfPath ? { path: d.pdfPath, bytes: read(d.pdfPath) } : null }]
            : [],
        );
        entry = { cell, result, figures };
      } catch (error) {
        entry = { cell, result: null, failure: errorMessage(error), figures: [] };
      }
      replayed.push(entry);
      options.onCell?.(cell, entry);
    }
  } finally {
    await supervisor.closeSession(sessionId);
  }
  return replayed;
}
