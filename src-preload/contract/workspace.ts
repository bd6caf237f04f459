import { z } from 'zod';
import type { ArtifactVersion } from './artifacts';
import { route } from './define';

const sessionId = z.string().min(1).max(200);

export interface ExportResult {
  /** Absolute path of the written zip (under `<data root>/exports`). */
  file: string;
  files: number;
  digest: string;
  /** Whether the OS file manager was asked to show it. */
  revealed: boolean;
}

export interface AttachResult {
  /** Workspace-relative path the file was written to (`uploads/<name>`). */
  path: string;
  bytes: number;
  sha256: string;
}

/** One entry of a workspace folder; a symlink is listed as a link and never followed. */
export interface WorkspaceFileEntry {
  name: string;
  /** Workspace-relative, forward slashes. */
  path: string;
  kind: 'file' | 'dir' | 'link' | 'other';
  /** Bytes, for regular files only. */
  size: number | null;
}

export interface WorkspaceListing {
  /** The folder, workspace-relative ("." for the workspace itself). */
  path: string;
  /** Folders first, then files, each by name; at most WORKSPACE_LIST_LIMIT. */
  entries: WorkspaceFileEntry[];
  /** True when the folder holds more entries than were listed. */
  truncated: boolean;
}

/** The start of a workspace file, for the file browser's preview. */
export interface WorkspaceFilePreview {
  path: string;
  size: number;
  /** By the file's extension (octet-stream when unknown). */
  mime: string;
  /** Base64 of the first `maxBytes` bytes. */
  base64: string;
  truncated: boolean;
}

/** Entries listed per folder: a folder of 100,000 files must not freeze the panel. */
export const WORKSPACE_LIST_LIMIT = 1000;
/** Default and largest preview read. */
export const WORKSPACE_PREVIEW_BYTES = 256 * 1024;
export const WORKSPACE_PREVIEW_MAX_BYTES = 8 * 1024 * 1024;

/** Largest file the composer may attach (base64 over IPC). */
export const MAX_ATTACH_BYTES = 25 * 1024 * 1024;

/** A workspace-relative path; the core confines it (no "..", no absolute path, no symlink followed). */
const workspacePath = z.string().max(1024);

/**
 * A session's files: export it as a verifiable zip, attach a file into its workspace, and
 * the file browser (list a folder, preview a file, save a file as an artifact version).
 * Attached file names are a plain name (no folders, no dot-dot); bytes travel base64-encoded.
 */
export const workspaceRoutes = {
  'session.export': route<ExportResult>()(z.object({ sessionId, reveal: z.boolean().default(true) }).strict()),
  'workspace.attach': route<AttachResult>()(
    z
      .object({
        sessionId,
        name: z
          .string()
          .trim()
          .min(1)
          .max(200)
          .regex(/^[^/\\\0]+$/, 'a file name, without folders')
          .refine((n) => n !== '.' && n !== '..', 'a file name, not "." or ".."'),
        base64: z.string().max(Math.ceil((MAX_ATTACH_BYTES * 4) / 3) + 4, 'the file is larger than 25 MB'),
      })
      .strict(),
  ),
  /** A folder of the session's workspace (the file browser); "." is the workspace itself. */
  'workspace.list': route<WorkspaceListing>()(z.object({ sessionId, path: workspacePath.default('.') }).strict()),
  /** The first bytes of a workspace file, for a preview. */
  'workspace.read': route<WorkspaceFilePreview>()(
    z.object({ sessionId, path: workspacePath.min(1), maxBytes: z.number().int().min(1).max(WORKSPACE_PREVIEW_MAX_BYTES).optional() }).strict(),
  ),
  /** Saves a workspace file as a new version of the artifact at its path (made by the user). */
  'workspace.saveArtifact': route<ArtifactVersion>()(z.object({ sessionId, path: workspacePath.min(1) }).strict()),
};
