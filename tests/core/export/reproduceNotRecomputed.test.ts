/**
 * Issue 25: `openai4s reproduce` reports, per artifact, a match, a difference, or that it
 * could not be recomputed and why. These are the "why"s, each from what the replay did
 * (compareArtifacts over hand-made rows, recorded calls and replayed cells; no kernel).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ArtifactProducer } from '../../../src-preload/contract/artifacts';
import type { KernelCellResult } from '../../../src-preload/contract/kernel';
import type { ArtifactIndexRow } from '../../../src-main/core/export/artifactFiles';
import type { RecordedHostCall } from '../../../src-main/core/export/reproducePackage';
import { compareArtifacts } from '../../../src-main/core/export/reproduce/compareArtifacts';
import type { NotebookCell, ReplayedCell } from '../../../src-main/core/export/reproduce/replayCells';
import type { ReplaySave } from '../../../src-main/core/export/reproduce/replayHost';

const CELL: ArtifactProducer = { kind: 'cell', cellId: 'cell-1', generation: 'gen-1', language: 'python' };
const bytes = (text: string) => new Uint8Array(Buffer.from(text));
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

let ids = 0;
function row(path: string, producer: ArtifactProducer, content: string): ArtifactIndexRow {
  const id = `av_${++ids}`;
  return {
    file: `artifacts/${path}`, id, artifactId: `art_${ids}`, sessionId: 's', number: 1, path, sha256: sha(content), size: content.length,
    mime: path.endsWith('.png') ? 'image/png' : 'text/plain', createdAt: 't', evidenceId: `ev_${ids}`,
    provenance: { producer, environment: { status: 'missing', language: null, reason: 'test' }, inputEvidence: [], created_at: 't' },
  };
}

const saveCall = (r: ArtifactIndexRow): RecordedHostCall => ({ method: 'save_artifact', cellId: 'cell-1', generation: 'gen-1', arguments: { path: r.path }, status: 'ok', text: '', output: { id: r.id } });

const notebookCell: NotebookCell = {
  index: 1, language: 'python', code: 'x', generation: 'gen-1', recordedStatus: 'ok', recordedStdout: '',
  figures: ['artifacts/figures/counts.png'], svgFigures: ['artifacts/figures/counts.svg'], pdfFigures: [null],
};

function failedCell(): ReplayedCell {
  const result = {
    sessionId: 'r', language: 'python', generation: 'g', cellId: 'c', cellNumber: 1, status: 'error', stdout: '', stderr: '', displays: [], truncated: false,
    sandbox: { state: 'sandboxed', backend: 'bwrap' }, error: { ename: 'HostError', evalue: 'science.search: no recorded answer', traceback: '', line: null },
  } as KernelCellResult;
  return { cell: notebookCell, result, figures: [] };
}

describe('reproduce: what could not be recomputed, and why', () => {
  it('names the reason for each: a downloaded input, a save the replay never made or could not read, a missing file, a figure the failed cell did not draw, a version outside the notebook', () => {
    const download = row('structures/4INS.pdb', { kind: 'tool', tool: 'science_search', runId: 'run-1' }, 'ATOM');
    const unsaved = row('sequences/P01308.fasta', CELL, '>P01308');
    const unreadable = row('tables/counts.csv', CELL, 'a,b');
    const missing = row('notes/missing.txt', CELL, 'gone');
    const figure = row('figures/counts.png', CELL, 'png');
    const svg = row('figures/counts.svg', CELL, '<svg/>');
    const stray = row('scratch/other.txt', CELL, 'other');
    const rows = [download, unsaved, unreadable, missing, figure, svg, stray];
    const files = new Map<string, Uint8Array>([download, unsaved, unreadable, figure, svg, stray].map((r) => [r.file, bytes('recorded')]));
    const calls = [saveCall(unsaved), saveCall(unreadable)];
    const saves: ReplaySave[] = [{ call: 1, path: 'tables/counts.csv', bytes: null, unreadable: 'it was a symlink' }];

    const checks = compareArtifacts(rows, files, calls, saves, [failedCell()]);
    const why = Object.fromEntries(checks.map((c) => [c.path, [c.outcome, c.sha256, c.reason]]));
    expect(why).toEqual({
      'structures/4INS.pdb': ['not_recomputed', null, 'made by the tool science_search, not computed by a cell: it is an input of the notebook, used as recorded'],
      'sequences/P01308.fasta': ['not_recomputed', null, 'no replayed cell called host.save_artifact(path="sequences/P01308.fasta") (see the cells\' outcomes)'],
      'tables/counts.csv': ['not_recomputed', null, 'the replayed cell saved tables/counts.csv but it could not be read: it was a symlink'],
      'notes/missing.txt': ['not_recomputed', null, 'the package has no artifacts/notes/missing.txt (verify names it missing)'],
      'figures/counts.png': ['not_recomputed', null, "cell 1 ended error (HostError: science.search: no recorded answer) and drew 0 figure(s); the session's cell drew 1"],
      'figures/counts.svg': ['not_recomputed', null, "cell 1 ended error (HostError: science.search: no recorded answer) and drew 0 figure(s); the session's cell drew 1"],
      'scratch/other.txt': ['not_recomputed', null, 'made by a python cell that is not in the notebook (neither saved through host.save_artifact nor shown as a figure)'],
    });
  });

  it('a cell that could not run at all says so for its figures; a drawn figure without its SVG names the missing vector form', () => {
    const figure = row('figures/counts.png', CELL, 'png');
    const svg = row('figures/counts.svg', CELL, '<svg/>');
    const files = new Map([figure, svg].map((r) => [r.file, bytes('recorded')]));
    const never: ReplayedCell = { cell: notebookCell, result: null, failure: 'no python interpreter was found', figures: [] };
    expect(compareArtifacts([figure], files, [], [], [never])[0]).toMatchObject({
      outcome: 'not_recomputed',
      reason: "cell 1 could not run (no python interpreter was found) and drew 0 figure(s); the session's cell drew 1",
    });
    const drewPngOnly: ReplayedCell = { ...failedCell(), figures: [{ path: 'figures/counts.png', bytes: bytes('recorded'), svg: null, pdf: null }] };
    const [png, vector] = compareArtifacts([figure, svg], files, [], [], [drewPngOnly]);
    expect(png).toMatchObject({ outcome: 'match' });
    expect(vector).toMatchObject({ outcome: 'not_recomputed', reason: 'the replayed cell 1 drew the figure but no SVG of it (the kernel could not write one, or it was over 4 MiB)' });
  });
});
