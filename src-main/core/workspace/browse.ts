import { AppError } from '../../../src-preload/contract/errors';
import {
  WORKSPACE_LIST_LIMIT,
  WORKSPACE_PREVIEW_BYTES,
  type WorkspaceFilePreview,
  type WorkspaceListing,
} from '../../../src-preload/contract/workspace';
import { guessMime } from './mime';
import {
  ProtectedPathError,
  WorkspaceEscapeError,
  WorkspaceKindError,
  WorkspaceNotFoundError,
  listWorkspaceDir,
  readFromStart,
  withWorkspaceFile,
} from './safeFs';

/**
 * The file browser of the Notebook tab (issue 25) over the session workspace. Everything
 * goes through safeFs: a folder is listed and a file read through descriptors opened one
 * component at a time from the workspace root, never following a symlink, and never a
 * path checked first and then opened by name (a cell shares the workspace and may swap a
 * folder for a symlink at any moment). safeFs's refusals become answers the renderer shows.
 */

/** safeFs's errors as the route's answer: what was wrong with the path, in one line. */
export function asWorkspaceAppError(error: unknown): unknown {
  if (error instanceof WorkspaceNotFoundError) return new AppError('not_found', error.message);
  if (error instanceof WorkspaceEscapeError || error instanceof ProtectedPathError) return new AppError('refused', error.message);
  if (error instanceof WorkspaceKindError) return new AppError('invalid_input', error.message);
  return error;
}

function confined<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw asWorkspaceAppError(error);
  }
}

/** A folder's entries: folders first, then files, by name; symlinks listed as links (never entered). */
export function listFolder(workspace: string, requested: string): WorkspaceListing {
  return confined(() => {
    const { rel, entries } = listWorkspaceDir(workspace, requested);
    const order = (kind: string) => (kind === 'dir' ? 0 : 1);
    const sorted = [...entries].sort((a, b) => order(a.kind) - order(b.kind) || a.name.localeCompare(b.name));
    return {
      path: rel,
      entries: sorted.slice(0, WORKSPACE_LIST_LIMIT).map((e) => ({ name: e.name, path: rel === '.' ? e.name : `${rel}/${e.name}`, kind: e.kind, size: e.size })),
      truncated: sorted.length > WORKSPACE_LIST_LIMIT,
    };
  });
}

/** The first `maxBytes` of a regular file (a folder, a symlink, a fifo are refused), read through the descriptor it opened. */
export function previewFile(workspace: string, requested: string, maxBytes = WORKSPACE_PREVIEW_BYTES): WorkspaceFilePreview {
  return confined(() =>
    withWorkspaceFile(workspace, requested, 'read', ({ fd, stat, rel }) => {
      const bytes = readFromStart(fd, Math.min(stat.size, maxBytes));
      return { path: rel, size: stat.size, mime: guessMime(rel), base64: bytes.toString('base64'), truncated: stat.size > bytes.length };
    }),
  );
}
