import type { UIMessage } from '../../../src-preload/contract/stream';

/** A `data-cell` part's final data (see runner/kernelCells.ts). */
interface CellData {
  language: 'python' | 'r';
  code: string;
  status: string;
  generation?: string;
  cellNumber?: number;
  stdout?: string;
  stderr?: string;
  displays?: { data: Record<string, string>; path?: string }[];
  error?: { ename: string; evalue: string; traceback: string } | null;
}

type NotebookOutput =
  | { output_type: 'stream'; name: 'stdout' | 'stderr'; text: string[] }
  | { output_type: 'display_data'; data: Record<string, string | string[]>; metadata: Record<string, unknown> }
  | { output_type: 'error'; ename: string; evalue: string; traceback: string[] };

const lines = (text: string): string[] => (text ? text.split(/(?<=\n)/) : []);

/**
 * The session's cells as a Jupyter notebook (nbformat 4.5): each question as a markdown
 * cell, each code cell with its outputs (figures inlined as PNG from the workspace),
 * each answer summary as markdown. R cells keep their language in cell metadata.
 */
export function sessionNotebook(
  title: string,
  messages: readonly UIMessage[],
  readWorkspaceFile: (relPath: string) => Uint8Array | null,
): Record<string, unknown> {
  const cells: Record<string, unknown>[] = [];
  let n = 0;
  const id = () => `cell-${String(++n).padStart(4, '0')}`;
  cells.push({ cell_type: 'markdown', id: id(), metadata: {}, source: lines(`# ${title}\n\nExported from OpenAI4S.`) });
  let execution = 0;
  for (const message of messages) {
    for (const part of message.parts) {
      if (message.role === 'user' && part.type === 'text') {
        cells.push({ cell_type: 'markdown', id: id(), metadata: {}, source: lines(`**Question:** ${part.text}`) });
      } else if (part.type === 'data-cell') {
        const cell = (part as { data: CellData }).data;
        if (!cell || typeof cell.code !== 'string') continue;
        const outputs: NotebookOutput[] = [];
        if (cell.stdout) outputs.push({ output_type: 'stream', name: 'stdout', text: lines(cell.stdout) });
        if (cell.stderr) outputs.push({ output_type: 'stream', name: 'stderr', text: lines(cell.stderr) });
        for (const d of cell.displays ?? []) {
          const data: Record<string, string | string[]> = {};
          if (d.path && d.path.endsWith('.png')) {
            const bytes = readWorkspaceFile(d.path);
            if (bytes) data['image/png'] = Buffer.from(bytes).toString('base64');
          }
          for (const [mime, value] of Object.entries(d.data ?? {})) if (!(mime in data)) data[mime] = lines(value);
          if (!Object.keys(data).length) continue;
          outputs.push({ output_type: 'display_data', data, metadata: d.path ? { 'openai4s/path': d.path } : {} });
        }
        if (cell.error) outputs.push({ output_type: 'error', ename: cell.error.ename, evalue: cell.error.evalue, traceback: lines(cell.error.traceback) });
        cells.push({
          cell_type: 'code',
          id: id(),
          execution_count: ++execution,
          metadata: { openai4s: { language: cell.language, status: cell.status, generation: cell.generation ?? null } },
          source: lines(cell.code),
          outputs,
        });
      } else if (part.type === 'data-answer') {
        const summary = (part as { data?: { summary?: string } }).data?.summary;
        if (summary) cells.push({ cell_type: 'markdown', id: id(), metadata: {}, source: lines(`**Answer:**\n\n${summary}`) });
      }
    }
  }
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' },
      language_info: { name: 'python' },
      openai4s: { title },
    },
    cells,
  };
}
