import type { UserCellRecord } from '../../../src-preload/contract';
import type { NotebookEntry, NotebookSlice, NotebookState } from './notebookTypes';
import { toErrorBody } from '../api/bridge';
import type { Slice, StoreDeps } from './types';

const EMPTY_NOTEBOOK: NotebookState = {
  sessionId: null,
  versions: [],
  entries: [],
  runningAll: false,
  loadError: null,
  variables: { status: 'idle', data: null, error: null },
};

let drafts = 0;

/** The entries of recorded cells (latest version each, in the order each cell was first run), then the new ones. */
function mergeEntries(versions: UserCellRecord[], previous: NotebookEntry[]): NotebookEntry[] {
  const latest = new Map<string, UserCellRecord>();
  for (const v of versions) latest.set(v.cellKey, v);
  const recorded = [...latest.values()].map((v): NotebookEntry => {
    const before = previous.find((e) => e.cellKey === v.cellKey);
    // An edit not run yet is kept; otherwise the editor shows the latest version.
    const edited = before && before.last && before.draft !== v.code && !before.running;
    return { key: v.cellKey, language: v.language, draft: edited ? before.draft : v.code, cellKey: v.cellKey, running: before?.running ?? false, last: v.result, error: before?.error ?? null };
  });
  const firstRun = new Map<string, number>();
  versions.forEach((v, i) => firstRun.has(v.cellKey) || firstRun.set(v.cellKey, i));
  recorded.sort((a, b) => firstRun.get(a.key)! - firstRun.get(b.key)!);
  return [...recorded, ...previous.filter((e) => e.cellKey === null)];
}

export const createNotebookSlice =
  (deps: StoreDeps): Slice<NotebookSlice> =>
  (set, get) => {
    const patchEntry = (key: string, patch: Partial<NotebookEntry>) =>
      set((s) => ({ notebook: { ...s.notebook, entries: s.notebook.entries.map((e) => (e.key === key ? { ...e, ...patch } : e)) } }));
    const forSession = (sessionId: string): NotebookState => (get().notebook.sessionId === sessionId ? get().notebook : { ...EMPTY_NOTEBOOK, sessionId });

    /** Runs one entry; true when it ended ok. */
    const runEntry = async (sessionId: string, key: string): Promise<boolean> => {
      const entry = get().notebook.entries.find((e) => e.key === key);
      if (!entry || entry.running || !entry.draft.trim() || get().notebook.sessionId !== sessionId) return false;
      patchEntry(key, { running: true, error: null });
      let ok = false;
      try {
        const executed = deps.bridge.invoke('kernel.execute', {
          sessionId,
          language: entry.language,
          code: entry.draft,
          ...(entry.cellKey ? { cellKey: entry.cellKey } : {}),
        });
        // Who holds the kernel now (the agent's run may have taken it since the last look): the cell says so while it waits.
        if (get().kernels.sessionId === sessionId) void get().loadKernels(sessionId);
        const result = await executed;
        ok = result.status === 'ok';
        const cellKey = result.userCell?.cellKey ?? entry.cellKey;
        // A new cell becomes the recorded cell it now is (same place in the list).
        set((s) => ({
          notebook: { ...s.notebook, entries: s.notebook.entries.map((e) => (e.key === key ? { ...e, key: cellKey ?? e.key, cellKey, running: false, last: result } : e)) },
        }));
        if (result.displays.some((d) => d.path)) void get().loadArtifacts(sessionId);
      } catch (error) {
        patchEntry(key, { running: false, error: toErrorBody(error) });
      }
      await get().loadNotebook(sessionId);
      if (get().kernels.sessionId === sessionId) await get().loadKernels(sessionId);
      return ok;
    };

    return {
      notebook: EMPTY_NOTEBOOK,

      async loadNotebook(sessionId) {
        set({ notebook: forSession(sessionId) });
        try {
          const versions = await deps.bridge.invoke('notebook.cells', { sessionId });
          if (get().notebook.sessionId !== sessionId) return;
          set((s) => ({ notebook: { ...s.notebook, versions, entries: mergeEntries(versions, s.notebook.entries), loadError: null } }));
        } catch (error) {
          set((s) => ({ notebook: { ...s.notebook, loadError: toErrorBody(error) } }));
        }
      },

      addNotebookCell(sessionId, language) {
        const state = forSession(sessionId);
        const entry: NotebookEntry = { key: `draft-${++drafts}`, language, draft: '', cellKey: null, running: false, last: null, error: null };
        set({ notebook: { ...state, entries: [...state.entries, entry] } });
      },

      editNotebookCell(key, draft) {
        patchEntry(key, { draft });
      },

      async runNotebookCell(sessionId, key) {
        await runEntry(sessionId, key);
      },

      async runAllNotebookCells(sessionId, fromKey) {
        if (get().notebook.runningAll) return;
        const entries = get().notebook.entries;
        const start = fromKey ? entries.findIndex((e) => e.key === fromKey) : 0;
        if (start < 0) return;
        set((s) => ({ notebook: { ...s.notebook, runningAll: true } }));
        try {
          for (const { key } of entries.slice(start)) {
            const current = get().notebook.entries.find((e) => e.key === key);
            if (!current?.draft.trim()) continue;
            // Like Jupyter's Run All: stop at the first cell that does not end ok.
            if (!(await runEntry(sessionId, key))) break;
          }
        } finally {
          set((s) => ({ notebook: { ...s.notebook, runningAll: false } }));
        }
      },

      async loadVariables(sessionId, language) {
        set((s) => {
          const state = s.notebook.sessionId === sessionId ? s.notebook : forSession(sessionId);
          // The view reads again after every cell: the names it shows stay until the new ones come, not blink away.
          const shown = state.variables.data?.language === language ? state.variables.data : null;
          return { notebook: { ...state, variables: { status: 'loading', data: shown, error: null } } };
        });
        try {
          const data = await deps.bridge.invoke('kernel.variables', { sessionId, language });
          set((s) => ({ notebook: { ...s.notebook, variables: { status: 'done', data, error: null } } }));
        } catch (error) {
          set((s) => ({ notebook: { ...s.notebook, variables: { status: 'error', data: null, error: toErrorBody(error) } } }));
        }
        // The listing ran a cell: a status read meanwhile says busy until the next poll, so read it again.
        if (get().kernels.sessionId === sessionId) await get().loadKernels(sessionId);
      },
    };
  };
