import type { UIMessage } from '../../../src-preload/contract/stream';
import type { ArtifactIndexRow } from './artifactFiles';
import { markdownFileLink } from './markdownLink';

/** A `data-cell` part's final data (see runner/kernelCells.ts). */
export interface CellData {
  language: 'python' | 'r';
  code: string;
  status: string;
  generation?: string;
  cellNumber?: number;
  stdout?: string;
  stderr?: string;
  displays?: { data: Record<string, string>; path?: string; bytes?: number; svgPath?: string; pdfPath?: string }[];
  error?: { ename: string; evalue: string; traceback: string } | null;
}

type NotebookOutput =
  | { output_type: 'stream'; name: 'stdout' | 'stderr'; text: string[] }
  | { output_type: 'display_data'; data: Record<string, string | string[]>; metadata: Record<string, unknown> }
  | { output_type: 'error'; ename: string; evalue: string; traceback: string[] };

const lines = (text: string): string[] => (text ? text.split(/(?<=\n)/) : []);

/** The artifact versions of the same export, to link figures to their files in it. */
export interface ExportedFiles {
  artifacts: readonly ArtifactIndexRow[];
  read(file: string): Uint8Array | null;
  /** The first code cell: installs the package's recorded `host` (see reproducePackage.ts). */
  setup?: string;
  /**
   * The cells the user ran in the Notebook tab (issue 25), every version in the order they
   * finished, each placed before the first message whose run started after it.
   */
  userCells?: readonly { cell: CellData; finishedAt: string; meta: Record<string, unknown> }[];
  /** When each message's run started (null: unknown), to place the user's cells among them. */
  messageStarts?: readonly (string | null)[];
}

/**
 * Which exported version a figure display became: the figure the host saved at that path
 * in that kernel generation (of that size), each version matched once, in saving order.
 */
function figureMatcher(artifacts: readonly ArtifactIndexRow[]) {
  const used = new Set<ArtifactIndexRow>();
  return (display: { path?: string; bytes?: number }, generation: string | undefined): ArtifactIndexRow | null => {
    const row = artifacts.find((a) => {
      const producer = a.provenance?.producer;
      return (
        !used.has(a) &&
        a.path === display.path &&
        producer?.kind === 'cell' &&
        producer.generation === generation &&
        (display.bytes === undefined || a.size === display.bytes)
      );
    });
    if (row) used.add(row);
    return row ?? null;
  };
}

const fence = (text: string, info = '') => {
  const ticks = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}${info}\n${text.replace(/\n$/, '')}\n${ticks}`;
};

/** An R cell shown in the Python notebook: its code and its recorded printed output (a table value's printed text among it). */
function rCellMarkdown(cell: CellData): string {
  const values = (cell.displays ?? []).filter((d) => !d.path && d.data?.['text/plain']).map((d) => `${d.data['text/plain']!.replace(/\n$/, '')}\n`);
  const output = [cell.stdout, ...values, cell.stderr, cell.error ? `${cell.error.ename}: ${cell.error.evalue}` : ''].filter(Boolean).join('');
  return [`R cell (run it in R, or with \`openai4s reproduce\`):`, fence(cell.code, 'r'), ...(output ? ['Recorded output:', fence(output)] : [])].join('\n\n');
}

/**
 * The session's cells as a Jupyter notebook (nbformat 4.5): each question as a markdown
 * cell, each code cell with its outputs (figures inlined as PNG from the exported
 * artifact version, else from the workspace) followed by links to the figure files in
 * the export, each answer summary as markdown. The first code cell installs the package's
 * recorded host. R cells are markdown (the kernel is Python) and keep their language in metadata.
 */
export function sessionNotebook(
  title: string,
  messages: readonly UIMessage[],
  readWorkspaceFile: (relPath: string) => Uint8Array | null,
  exported: ExportedFiles = { artifacts: [], read: () => null },
): Record<string, unknown> {
  const figureOf = figureMatcher(exported.artifacts);
  const cells: Record<string, unknown>[] = [];
  let n = 0;
  const id = () => `cell-${String(++n).padStart(4, '0')}`;
  cells.push({ cell_type: 'markdown', id: id(), metadata: {}, source: lines(`# ${title}\n\nExported from OpenAI4S.`) });
  let execution = 0;
  if (exported.setup) cells.push({ cell_type: 'code', id: id(), execution_count: null, metadata: { openai4s: { setup: true } }, source: lines(exported.setup), outputs: [] });
  const pushCell = (cell: CellData, extra: Record<string, unknown> = {}) => {
    const outputs: NotebookOutput[] = [];
    if (cell.stdout) outputs.push({ output_type: 'stream', name: 'stdout', text: lines(cell.stdout) });
    if (cell.stderr) outputs.push({ output_type: 'stream', name: 'stderr', text: lines(cell.stderr) });
    // Every figure file of the cell (PNG, then its SVG and PDF) for the links; per figure its PNG and vector files for reproduce.
    const figureFiles: string[] = [];
    const figures: { png: string; svg: string | null; pdf: string | null }[] = [];
    for (const d of cell.displays ?? []) {
      const data: Record<string, string | string[]> = {};
      const figure = d.path ? figureOf(d, cell.generation) : null;
      if (d.path && d.path.endsWith('.png')) {
        // The bytes hashed at save time; the workspace file may have changed since.
        const bytes = (figure && exported.read(figure.file)) ?? readWorkspaceFile(d.path);
        if (bytes) data['image/png'] = Buffer.from(bytes).toString('base64');
      }
      for (const [mime, value] of Object.entries(d.data ?? {})) if (!(mime in data)) data[mime] = lines(value);
      if (!Object.keys(data).length) continue;
      // The figure's SVG and PDF, exported as their own versions beside the PNG.
      const svg = d.svgPath ? figureOf({ path: d.svgPath }, cell.generation) : null;
      const pdf = d.pdfPath ? figureOf({ path: d.pdfPath }, cell.generation) : null;
      const metadata = {
        ...(d.path ? { 'openai4s/path': d.path } : {}),
        ...(figure ? { 'openai4s/file': figure.file } : {}),
        ...(svg ? { 'openai4s/svgFile': svg.file } : {}),
        ...(pdf ? { 'openai4s/pdfFile': pdf.file } : {}),
      };
      outputs.push({ output_type: 'display_data', data, metadata });
      if (figure) figures.push({ png: figure.file, svg: svg?.file ?? null, pdf: pdf?.file ?? null });
      for (const f of [figure, svg, pdf]) if (f) figureFiles.push(f.file);
    }
    if (cell.error) outputs.push({ output_type: 'error', ename: cell.error.ename, evalue: cell.error.evalue, traceback: lines(cell.error.traceback) });
    const openai4s = { language: cell.language, status: cell.status, generation: cell.generation ?? null, ...extra };
    if (cell.language === 'r') {
      // The notebook's kernel is Python: an R cell is shown, not run there (`openai4s reproduce` runs it in R).
      // What `openai4s reproduce` needs to run it again and compare: the code, its printed output, its figures.
      const replay = { code: cell.code, stdout: cell.stdout ?? '', figures: figures.map((f) => f.png), svgFigures: figures.map((f) => f.svg), pdfFigures: figures.map((f) => f.pdf) };
      cells.push({ cell_type: 'markdown', id: id(), metadata: { openai4s: { ...openai4s, ...replay } }, source: lines(rCellMarkdown(cell)) });
    } else {
      // A cell that failed in the session fails again here: Jupyter (and nbclient) go on past it.
      const tags = cell.status === 'ok' ? {} : { tags: ['raises-exception'] };
      cells.push({ cell_type: 'code', id: id(), execution_count: ++execution, metadata: { openai4s, ...tags }, source: lines(cell.code), outputs });
    }
    const links = figureFiles.map((file) => `- ${markdownFileLink(file)}`);
    if (links.length) cells.push({ cell_type: 'markdown', id: id(), metadata: {}, source: lines(`Figures of this cell in the export:\n\n${links.join('\n')}`) });
  };
  const userCells = [...(exported.userCells ?? [])];
  const flushUserCells = (before: string | null) => {
    while (userCells.length && (before === null || userCells[0]!.finishedAt <= before)) {
      const { cell, meta } = userCells.shift()!;
      cells.push({ cell_type: 'markdown', id: id(), metadata: {}, source: lines(`**Cell run by the user** (Notebook tab, version ${String(meta.version ?? 1)}):`) });
      pushCell(cell, meta);
    }
  };
  messages.forEach((message, i) => {
    const start = exported.messageStarts?.[i];
    if (start) flushUserCells(start);
    for (const part of message.parts) {
      if (message.role === 'user' && part.type === 'text') {
        cells.push({ cell_type: 'markdown', id: id(), metadata: {}, source: lines(`**Question:** ${part.text}`) });
      } else if (part.type === 'data-cell') {
        const cell = (part as { data: CellData }).data;
        if (!cell || typeof cell.code !== 'string') continue;
        pushCell(cell);
      } else if (part.type === 'data-answer') {
        const summary = (part as { data?: { summary?: string } }).data?.summary;
        if (summary) cells.push({ cell_type: 'markdown', id: id(), metadata: {}, source: lines(`**Answer:**\n\n${summary}`) });
      }
    }
  });
  flushUserCells(null);
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
