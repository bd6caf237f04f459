import { createHash } from 'node:crypto';
import type { ArtifactIndexRow } from '../artifactFiles';
import type { RecordedHostCall } from '../reproducePackage';
import { PngDecodeError, comparePngs, type PixelDifference } from './pngCompare';
import type { ReplayedCell } from './replayCells';
import type { ReplaySave } from './replayHost';
import { asText, fileDiff } from './textDiff';

export type ArtifactOutcome = 'match' | 'within_tolerance' | 'differs' | 'not_recomputed';

/** One exported artifact version against its recomputation. */
export interface ArtifactCheck {
  path: string;
  version: number;
  /** Its file in the package. */
  file: string;
  outcome: ArtifactOutcome;
  recordedSha256: string;
  /** The recomputed bytes' sha256, when there are some. */
  sha256: string | null;
  /** Why it differs, or why it could not be recomputed: one sentence. */
  reason?: string;
  /** Text and tables: what changed. */
  diff?: { kind: 'text' | 'table'; lines: string[] };
  /** Figures: how many pixels differ, and where. */
  pixels?: PixelDifference;
}

/** The share of a figure's pixels that may differ (anti-aliasing, font hinting) and still count as reproduced. */
export const DEFAULT_PIXEL_TOLERANCE = 0.001;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function producerText(row: ArtifactIndexRow): string {
  const producer = row.provenance?.producer;
  if (!producer) return 'an unknown producer';
  if (producer.kind === 'tool') return `the tool ${producer.tool}`;
  if (producer.kind === 'user') return 'the user';
  if (producer.kind === 'job') return `the compute job ${producer.jobId} on ${producer.target}`;
  return `a ${producer.language} cell`;
}

/** Compares recorded and recomputed bytes: hash, then pixels (PNG) or a diff (text). */
function compareBytes(row: ArtifactIndexRow, recorded: Uint8Array, recomputed: Uint8Array, tolerance: number): Omit<ArtifactCheck, 'path' | 'version' | 'file' | 'recordedSha256'> {
  const hash = sha256(recomputed);
  // Against the bytes in the package (verify says when they are not the ones hashed at save time).
  if (hash === sha256(recorded)) return { outcome: 'match', sha256: hash };
  const base = { sha256: hash };
  if (row.path.toLowerCase().endsWith('.png') || row.mime === 'image/png') {
    try {
      const pixels = comparePngs(recorded, recomputed);
      const share = `${pixels.differingPixels} of ${pixels.width * pixels.height} pixels differ (${(pixels.fraction * 100).toFixed(3)}%, largest channel difference ${pixels.maxChannelDelta})`;
      if (pixels.fraction <= tolerance) return { ...base, outcome: 'within_tolerance', pixels, reason: `not byte-identical, but ${share}: within the ${(tolerance * 100).toFixed(3)}% tolerance` };
      return { ...base, outcome: 'differs', pixels, reason: `${share}, more than the ${(tolerance * 100).toFixed(3)}% tolerance` };
    } catch (error) {
      const why = error instanceof PngDecodeError ? `its pixels could not be compared: ${error.message}` : (error as Error).message;
      return { ...base, outcome: 'differs', reason: why };
    }
  }
  const a = asText(recorded);
  const b = asText(recomputed);
  if (a !== null && b !== null) {
    const diff = fileDiff(row.path, a, b);
    return { ...base, outcome: 'differs', diff, reason: `the recomputed ${diff.kind === 'table' ? 'table' : 'text'} differs (${recorded.byteLength} bytes recorded, ${recomputed.byteLength} recomputed)` };
  }
  return { ...base, outcome: 'differs', reason: `the recomputed binary file differs (${recorded.byteLength} bytes recorded, ${recomputed.byteLength} recomputed)` };
}

/** Why a cell's figures may be missing: the cell's own outcome in the replay. */
function cellOutcome(replayed: ReplayedCell): string {
  if (!replayed.result) return `cell ${replayed.cell.index} could not run (${replayed.failure ?? 'unknown'})`;
  const r = replayed.result;
  if (r.status === 'ok') return `cell ${replayed.cell.index} ran`;
  return `cell ${replayed.cell.index} ended ${r.status}${r.error ? ` (${r.error.ename}: ${r.error.evalue})` : r.died ? ` (${r.died.reason})` : ''}`;
}

/**
 * Every artifact version of the package against the replay: versions a cell saved with
 * host.save_artifact against the bytes the replayed cell saved at that call; figures
 * against the figures the same notebook cell drew, in order; versions no cell made
 * (downloads, uploads) are inputs, not recomputed.
 */
export function compareArtifacts(
  rows: readonly ArtifactIndexRow[],
  files: ReadonlyMap<string, Uint8Array>,
  calls: readonly RecordedHostCall[],
  saves: readonly ReplaySave[],
  replayed: readonly ReplayedCell[],
  tolerance = DEFAULT_PIXEL_TOLERANCE,
): ArtifactCheck[] {
  // Figure file in the package -> what the replay drew in its place.
  const figures = new Map<string, { bytes: Uint8Array | null; reason?: string }>();
  for (const entry of replayed) {
    entry.cell.figures.forEach((file, i) => {
      const drawn = entry.figures[i];
      if (drawn?.bytes) figures.set(file, { bytes: drawn.bytes });
      else if (drawn) figures.set(file, { bytes: null, reason: `the replayed cell ${entry.cell.index} drew it as ${drawn.path}, but the file was gone when it was read` });
      else figures.set(file, { bytes: null, reason: `${cellOutcome(entry)} and drew ${entry.figures.length} figure(s); the session's cell drew ${entry.cell.figures.length}` });
      // Its SVG and PDF against the replayed figure's (the same bytes: both are written without dates).
      for (const [kind, vectorFile] of [['SVG', entry.cell.svgFigures[i]], ['PDF', entry.cell.pdfFigures[i]]] as const) {
        if (!vectorFile) continue;
        const replayedFile = kind === 'SVG' ? drawn?.svg : drawn?.pdf;
        if (replayedFile?.bytes) figures.set(vectorFile, { bytes: replayedFile.bytes });
        else figures.set(vectorFile, { bytes: null, reason: drawn ? `the replayed cell ${entry.cell.index} drew the figure but no ${kind} of it (the kernel could not write one, or it was over 4 MiB)` : figures.get(file)!.reason! });
      }
    });
  }
  return rows.map((row) => {
    const head = { path: row.path, version: row.number, file: row.file, recordedSha256: row.sha256 };
    const recorded = files.get(row.file);
    if (!recorded) return { ...head, outcome: 'not_recomputed', sha256: null, reason: `the package has no ${row.file} (verify names it missing)` };
    if (row.provenance?.producer?.kind !== 'cell') {
      return { ...head, outcome: 'not_recomputed', sha256: null, reason: `made by ${producerText(row)}, not computed by a cell: it is an input of the notebook, used as recorded` };
    }
    const call = calls.findIndex((c) => c.method === 'save_artifact' && (c.output as { id?: string } | undefined)?.id === row.id);
    if (call >= 0) {
      const save = saves.find((s) => s.call === call);
      if (!save) return { ...head, outcome: 'not_recomputed', sha256: null, reason: `no replayed cell called host.save_artifact(path="${String((calls[call]!.arguments as { path?: unknown })?.path ?? row.path)}") (see the cells' outcomes)` };
      if (!save.bytes) return { ...head, outcome: 'not_recomputed', sha256: null, reason: `the replayed cell saved ${save.path} but it could not be read: ${save.unreadable ?? 'unknown'}` };
      return { ...head, ...compareBytes(row, recorded, save.bytes, tolerance) };
    }
    const figure = figures.get(row.file);
    if (figure?.bytes) return { ...head, ...compareBytes(row, recorded, figure.bytes, tolerance) };
    if (figure) return { ...head, outcome: 'not_recomputed', sha256: null, reason: figure.reason ?? 'the replay drew no figure for it' };
    return { ...head, outcome: 'not_recomputed', sha256: null, reason: `made by ${producerText(row)} that is not in the notebook (neither saved through host.save_artifact nor shown as a figure)` };
  });
}
