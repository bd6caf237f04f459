import path from 'node:path';
import type { ArtifactVersion } from '../../../src-preload/contract/artifacts';
import { collisionKey } from './entryNames';

/**
 * Where each artifact version lives in an export. A version keeps its real file name,
 * extension included, so a file manager or Jupyter opens it: the version is a folder just
 * above the file, `sequences/P01308.fasta` version 2 is `artifacts/sequences/v2/P01308.fasta`.
 *
 * The mapping is one-to-one: the version folder is always the second-to-last segment,
 * so no two (path, version) pairs give one name. Names that differ only in letter case or
 * Unicode normalisation would still be one file on macOS and Windows; the later one gets a
 * `-2`… suffix before its extension (its logical path stays in `artifacts/index.json`).
 */

export const ARTIFACTS_FOLDER = 'artifacts';
export const ARTIFACT_INDEX = `${ARTIFACTS_FOLDER}/index.json`;

/** `figures/a.png`, 1 -> `artifacts/figures/v1/a.png`. */
export function artifactExportName(artifactPath: string, number: number): string {
  const dir = path.posix.dirname(artifactPath);
  const base = path.posix.basename(artifactPath);
  return [ARTIFACTS_FOLDER, ...(dir === '.' ? [] : [dir]), `v${number}`, base].join('/');
}

/** `a/b.tar.gz`, 2 -> `a/b-2.tar.gz`: the suffix goes before the (last) extension. */
function withSuffix(name: string, n: number): string {
  const slash = name.lastIndexOf('/');
  const dot = name.lastIndexOf('.');
  return dot > slash + 1 ? `${name.slice(0, dot)}-${n}${name.slice(dot)}` : `${name}-${n}`;
}

export interface ExportedArtifact {
  /** The name inside the zip. */
  file: string;
  version: ArtifactVersion;
}

/**
 * Export names for versions, in order, unique also on case-insensitive disks and never
 * equal to a name already `taken` (the export's own files).
 */
export function exportedArtifactNames(versions: readonly ArtifactVersion[], taken: Iterable<string> = [ARTIFACT_INDEX]): ExportedArtifact[] {
  const used = new Set([...taken].map(collisionKey));
  return versions.map((version) => {
    const wanted = artifactExportName(version.path, version.number);
    let file = wanted;
    for (let n = 2; used.has(collisionKey(file)); n++) file = withSuffix(wanted, n);
    used.add(collisionKey(file));
    return { file, version };
  });
}

/** What `artifacts/index.json` holds for a version: where it is in the zip, and its record. */
export type ArtifactIndexRow = { file: string } & ArtifactVersion;

/** The index rows of exported versions (the export writes them as `artifacts/index.json`). */
export const artifactIndex = (exported: readonly ExportedArtifact[]): ArtifactIndexRow[] => exported.map(({ file, version }) => ({ file, ...version }));

/** The rows of an export's own `artifacts/index.json` (none when it has no artifacts). */
export function readArtifactIndex(files: ReadonlyMap<string, Uint8Array>): ArtifactIndexRow[] {
  const bytes = files.get(ARTIFACT_INDEX);
  if (!bytes) return [];
  const rows: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
  return Array.isArray(rows) ? rows.filter((r): r is ArtifactIndexRow => typeof r?.file === 'string' && typeof r?.path === 'string') : [];
}
