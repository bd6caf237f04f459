import type { ErrorBody, KernelLanguage, KernelVariables, UserCellRecord, UserCellRun } from '../../../src-preload/contract';

/** A cell of the user's notebook: a recorded cell (its key is the cellKey) or a new one not run yet. */
export interface NotebookEntry {
  key: string;
  language: KernelLanguage;
  /** What the editor holds (may differ from the latest version: an edit not run yet). */
  draft: string;
  /** The cellKey once a version exists. */
  cellKey: string | null;
  running: boolean;
  /** The last run's result (also the latest recorded version's). */
  last: UserCellRun | UserCellRecord['result'] | null;
  error: ErrorBody | null;
}

export interface NotebookState {
  sessionId: string | null;
  /** Every recorded version, oldest first (notebook.cells). */
  versions: UserCellRecord[];
  entries: NotebookEntry[];
  runningAll: boolean;
  loadError: ErrorBody | null;
  /** The last listing (its language is `data.language`); kept on screen while the same language is read again. */
  variables: { status: 'idle' | 'loading' | 'done' | 'error'; data: KernelVariables | null; error: ErrorBody | null };
}

export interface NotebookSlice {
  notebook: NotebookState;
  /** Reads the session's recorded cells; entries keep unsaved edits and new cells of the same session. */
  loadNotebook(sessionId: string): Promise<void>;
  addNotebookCell(sessionId: string, language: KernelLanguage): void;
  editNotebookCell(key: string, draft: string): void;
  /** Runs one cell (a new version of it); resolves once it finished. */
  runNotebookCell(sessionId: string, key: string): Promise<void>;
  /** Runs every cell from the top (or from `fromKey` down), in order, stopping at the first that does not end ok. */
  runAllNotebookCells(sessionId: string, fromKey?: string): Promise<void>;
  loadVariables(sessionId: string, language: KernelLanguage): Promise<void>;
}
