import { z } from 'zod';
import { route } from './define';
import type { KernelCellResult, KernelLanguage } from './kernel';

export type { KernelLeaseOwner, KernelLeaseView, UserCellRun } from './kernel';

/** One finished version of a cell the user ran (append-only: an edit and re-run is a new version). */
export interface UserCellRecord {
  id: string;
  sessionId: string;
  /** The notebook cell this is a version of. */
  cellKey: string;
  version: number;
  language: KernelLanguage;
  code: string;
  status: KernelCellResult['status'];
  generation: string | null;
  result: KernelCellResult;
  /** The cell's evidence record (cite it for computed claims), when provenance was recorded. */
  evidenceId: string | null;
  /** The host calls the cell made and their answers, in order: an export replays them. */
  hostCalls: UserCellHostCall[];
  startedAt: string;
  finishedAt: string;
}

/** A host call of a user's cell (`host.science.search(...)`) and the answer the app gave. */
export interface UserCellHostCall {
  method: string;
  arguments: Record<string, unknown>;
  status: 'ok' | 'error';
  text: string;
  output?: unknown;
}

/** One name in a kernel's global namespace, for the variables view. */
export interface KernelVariable {
  name: string;
  /** `DataFrame`, `ndarray`, `int`, `data.frame`… */
  type: string;
  /** `110 x 3`, `len 20`; null when the value has no shape. */
  shape: string | null;
  /** A short, plain-text preview (never HTML). */
  preview: string;
}

export interface KernelVariables {
  language: KernelLanguage;
  /** Null when the kernel is not running (nothing to list, and nothing was started for it). */
  generation: string | null;
  variables: KernelVariable[];
}

const sessionId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, 'a session id is 1-128 letters, digits, "_" or "-"');

export const notebookRoutes = {
  /** Every version of every cell the user ran in the session, oldest first. */
  'notebook.cells': route<UserCellRecord[]>()(z.object({ sessionId }).strict()),
  /** The names in a running kernel: type, shape, a short preview (a small introspection cell). */
  'kernel.variables': route<KernelVariables>()(z.object({ sessionId, language: z.enum(['python', 'r']) }).strict()),
};
