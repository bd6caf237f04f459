import { toErrorBody } from '../api/bridge';
import type { FilesSlice, FilesState } from './filesTypes';
import type { Slice, StoreDeps } from './types';

const EMPTY_FILES: FilesState = { sessionId: null, folder: '.', status: 'idle', listing: null, error: null, preview: null, saved: null };

/** Images are shown whole or not at all: ask for up to the route's maximum (8 MiB); text needs only its start. */
const IMAGE = /\.(png|jpe?g|gif|webp|svg)$/i;
const IMAGE_BYTES = 8 * 1024 * 1024;

/**
 * The workspace file browser: every read goes through `workspace.*` routes, where the core
 * lists and opens through safeFs (no symlink followed, no path reopened by name); the
 * renderer never names a host path.
 */
export const createFilesSlice =
  (deps: StoreDeps): Slice<FilesSlice> =>
  (set, get) => {
    const forSession = (sessionId: string): FilesState => (get().files.sessionId === sessionId ? get().files : { ...EMPTY_FILES, sessionId });
    const patch = (sessionId: string, change: Partial<FilesState>) =>
      set((s) => (s.files.sessionId === sessionId ? { files: { ...s.files, ...change } } : {}));

    return {
      files: EMPTY_FILES,

      async openFolder(sessionId, folder) {
        const state = forSession(sessionId);
        const moved = state.folder !== folder;
        set({ files: { ...state, folder, status: 'loading', error: null, ...(moved ? { preview: null, saved: null } : {}) } });
        try {
          const listing = await deps.bridge.invoke('workspace.list', { sessionId, path: folder });
          if (get().files.folder !== folder) return; // another folder was opened meanwhile
          patch(sessionId, { status: 'done', listing, folder: listing.path });
        } catch (error) {
          if (get().files.folder !== folder) return;
          patch(sessionId, { status: 'error', error: toErrorBody(error) });
        }
      },

      async previewWorkspaceFile(sessionId, path) {
        set({ files: { ...forSession(sessionId), preview: { path, status: 'loading', data: null, error: null } } });
        try {
          const data = await deps.bridge.invoke('workspace.read', { sessionId, path, ...(IMAGE.test(path) ? { maxBytes: IMAGE_BYTES } : {}) });
          if (get().files.preview?.path === path) patch(sessionId, { preview: { path, status: 'done', data, error: null } });
        } catch (error) {
          if (get().files.preview?.path === path) patch(sessionId, { preview: { path, status: 'error', data: null, error: toErrorBody(error) } });
        }
      },

      closeWorkspacePreview() {
        set((s) => ({ files: { ...s.files, preview: null } }));
      },

      async saveWorkspaceFileAsArtifact(sessionId, path) {
        try {
          const version = await deps.bridge.invoke('workspace.saveArtifact', { sessionId, path });
          patch(sessionId, { saved: { path: version.path, version: version.number, error: null } });
          void get().loadArtifacts(sessionId);
        } catch (error) {
          patch(sessionId, { saved: { path, version: null, error: toErrorBody(error) } });
        }
      },

      attachWorkspaceFile(sessionId, entry) {
        set((s) => {
          const current = s.attachments.sessionId === sessionId ? s.attachments.items : [];
          if (current.some((a) => a.path === entry.path)) return {};
          const id = s.attachments.nextId;
          const item = { id, name: entry.name, size: entry.size ?? 0, status: 'ready' as const, path: entry.path, sha256: null, error: null };
          return { attachments: { sessionId, items: [...current, item], nextId: id + 1 } };
        });
      },
    };
  };
