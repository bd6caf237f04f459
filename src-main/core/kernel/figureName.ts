import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { writeWorkspaceFile } from '../workspace/safeFs';

/**
 * Where the host saves a figure a cell left: `figures/<name>.png`, where the name says
 * what the figure is (its suptitle or axes title, else the cell's title comment) and
 * only falls back to the kernel generation and cell number. A figure never replaces a
 * file that is already there: the name gets a `-2`, `-3`… suffix instead.
 */

export const FIGURES_FOLDER = 'figures';
/** Code points kept of a title: short enough for any file system with the suffix and `.png`. */
const STEM_MAX = 60;
/** Suffixes tried before a random one (a cell could pre-create every `-N` name). */
const SUFFIX_TRIES = 99;
// Names Windows reserves whatever the extension (`CON.png` cannot be created there).
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/**
 * A file-name stem from free text: letters, marks, digits and `_` kept (any script),
 * every other run of characters (spaces, punctuation, separators, controls, invisible
 * and text-direction characters) becomes one `-`; trimmed to 60 code points. Null when
 * nothing nameable is left.
 */
export function figureStem(text: string | null | undefined): string | null {
  if (!text) return null;
  const dashed = text.normalize('NFKC').replace(/[^\p{L}\p{M}\p{N}_]+/gu, '-');
  const trimmed = Array.from(dashed.replace(/^[-_\p{M}]+/u, '')).slice(0, STEM_MAX).join('').replace(/[-_]+$/, '');
  if (!trimmed) return null;
  return WINDOWS_RESERVED.test(trimmed) ? `${trimmed}-figure` : trimmed;
}

/**
 * A cell's title: its first non-blank line when that is a comment (`# Composition of
 * INS`, also the `# %%` cell marker form); a shebang or an encoding line is no title.
 */
export function cellTitle(code: string): string | null {
  const first = code.split('\n').find((line) => line.trim() !== '');
  const comment = first?.trim().match(/^#+\s*(?:%%\s*)?(.*)$/);
  if (!comment || first!.trim().startsWith('#!')) return null;
  const text = comment[1]!.trim();
  if (/^-\*-.*coding[:=]/.test(text) || /^(vim?|ex):/.test(text)) return null;
  return text || null;
}

/** The stem of a figure's file: its own title, else the cell's title, else generation and cell number. */
export function figureFileStem(figureTitle: string | undefined, code: string, generation: string, cellNumber: number, figureCount: number): string {
  return figureStem(figureTitle) ?? figureStem(cellTitle(code)) ?? `${generation.slice(0, 8)}-cell${cellNumber}-${figureCount}`;
}

/**
 * Writes a figure's vector form beside its PNG (`figures/a.png` -> `figures/a.svg`, `a.pdf`),
 * never over a file already there; null when it could not be written (the PNG stands alone).
 */
export function writeFigureBeside(workspace: string, pngPath: string, ext: 'svg' | 'pdf', bytes: Uint8Array): string | null {
  const rel = pngPath.replace(/\.png$/, `.${ext}`);
  try {
    writeWorkspaceFile(workspace, rel, bytes, { exclusive: true });
    return rel;
  } catch {
    // Taken by a file of the cell, or unwritable: the PNG is the figure.
    return null;
  }
}

/**
 * Writes a figure under `figures/` as `<stem>.png`, or `<stem>-2.png`… when the name is
 * taken (never replacing a file); returns the workspace-relative path it wrote.
 */
export function writeNewFigure(workspace: string, stem: string, bytes: Uint8Array): string {
  const candidates = [stem, ...Array.from({ length: SUFFIX_TRIES - 1 }, (_, i) => `${stem}-${i + 2}`), `${stem}-${randomBytes(6).toString('hex')}`];
  for (const name of candidates) {
    const rel = path.posix.join(FIGURES_FOLDER, `${name}.png`);
    try {
      writeWorkspaceFile(workspace, rel, bytes, { exclusive: true });
      return rel;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new Error(`every name from ${FIGURES_FOLDER}/${stem}.png to ${FIGURES_FOLDER}/${stem}-${SUFFIX_TRIES}.png is taken; remove some files from ${FIGURES_FOLDER}/`);
}
