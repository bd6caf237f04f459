import type { ErrorBody, WorkspaceFileEntry, WorkspaceFilePreview, WorkspaceListing } from '../../../src-preload/contract';

/** The Notebook tab's workspace file browser (issue 25). */
export interface FilesState {
  sessionId: string | null;
  /** The folder shown, workspace-relative ("." is the workspace itself). */
  folder: string;
  status: 'idle' | 'loading' | 'done' | 'error';
  listing: WorkspaceListing | null;
  error: ErrorBody | null;
  /** The file opened for a preview, its bytes once read, or why they could not be. */
  preview: { path: string; status: 'loading' | 'done' | 'error'; data: WorkspaceFilePreview | null; error: ErrorBody | null } | null;
  /** What the last Save as artifact did: the version it made, or why it failed. */
  saved: { path: string; version: number | null; error: ErrorBody | null } | null;
}

export interface FilesSlice {
  files: FilesState;
  /** Lists a folder of the session's workspace (the same folder again to refresh it). */
  openFolder(sessionId: string, folder: string): Promise<void>;
  /** Reads the start of a file for its preview (images in full, up to the preview maximum). */
  previewWorkspaceFile(sessionId: string, path: string): Promise<void>;
  closeWorkspacePreview(): void;
  /** Saves the file as a new version of the artifact at its path, then reloads the artifact list. */
  saveWorkspaceFileAsArtifact(sessionId: string, path: string): Promise<void>;
  /** Puts the file among the next message's attachments (it is already in the workspace: nothing is uploaded). */
  attachWorkspaceFile(sessionId: string, entry: WorkspaceFileEntry): void;
}
