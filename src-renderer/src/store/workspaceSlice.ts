import { toErrorBody } from '../api/bridge';
import { errorNotice } from './noticesReducer';
import { conversationReducer } from './conversationReducer';
import { sessionsDispatch } from './sessionsDispatch';
import type { Attachment, Slice, StoreDeps, WorkspaceSlice } from './types';

/**
 * The contract's MAX_ATTACH_BYTES (25 MB). The renderer may import only types from the
 * contract, so the number is repeated here; a renderer test pins the two together.
 */
export const ATTACH_LIMIT_BYTES = 25 * 1024 * 1024;

/** Bytes as base64 in slices, so a 25 MB file never builds one giant argument list. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step)
    binary += String.fromCharCode(...bytes.subarray(i, i + step));
  return btoa(binary);
}

/**
 * The message as sent: the user's text plus the workspace paths of the attached files,
 * so the model knows where to read them (the files are in the session's workspace).
 */
export function withAttachments(text: string, paths: readonly string[]): string {
  const body = text.trim();
  if (paths.length === 0) return body;
  const line = `Attached: ${paths.join(', ')}`;
  return body ? `${body}\n\n${line}` : line;
}

export const createWorkspaceSlice =
  (deps: StoreDeps): Slice<WorkspaceSlice> =>
  (set, get) => {
    const sessions = sessionsDispatch(set);
    const notify = (error: unknown) =>
      get().receiveNotice(errorNotice(error));
    const patch = (id: number, change: Partial<Attachment>) =>
      set((s) => ({
        attachments: {
          ...s.attachments,
          items: s.attachments.items.map((a) => (a.id === id ? { ...a, ...change } : a)),
        },
      }));

    return {
      demoStatus: 'idle',
      exported: null,
      attachments: { sessionId: null, items: [], nextId: 1 },

      async startDemo() {
        if (get().demoStatus === 'starting') return false;
        set({ demoStatus: 'starting' });
        try {
          const { session, run } = await deps.bridge.invoke('demo.start', {});
          sessions({ type: 'sessions/upserted', session });
          await get().openSession(session.id);
          // The run may already be in the loaded history; `conv/submitted` is idempotent.
          set((s) =>
            s.conversation?.sessionId === session.id
              ? { conversation: conversationReducer(s.conversation, { type: 'conv/submitted', run }) }
              : {},
          );
          void get().refreshActivity(session.id);
          return true;
        } catch (error) {
          notify(error);
          return false;
        } finally {
          set({ demoStatus: 'idle' });
        }
      },

      async exportSession() {
        const sessionId = get().conversation?.sessionId;
        if (!sessionId || get().exported?.status === 'running') return;
        set({ exported: { sessionId, status: 'running', result: null, error: null } });
        try {
          const result = await deps.bridge.invoke('session.export', { sessionId, reveal: true });
          set({ exported: { sessionId, status: 'done', result, error: null } });
        } catch (error) {
          set({
            exported: { sessionId, status: 'error', result: null, error: toErrorBody(error) },
          });
        }
      },

      dismissExport() {
        set({ exported: null });
      },

      async attachFiles(files) {
        if (files.length === 0) return;
        let sessionId = get().conversation?.sessionId ?? null;
        // Files live in a session's workspace: attaching on the start page opens a session.
        if (!sessionId) sessionId = await get().createSession();
        if (!sessionId) return;
        if (get().attachments.sessionId !== sessionId)
          set((s) => ({ attachments: { ...s.attachments, sessionId, items: [] } }));
        await Promise.all(
          files.map(async (file) => {
            const id = get().attachments.nextId;
            const item: Attachment = {
              id,
              name: file.name,
              size: file.size,
              status: 'uploading',
              path: null,
              sha256: null,
              error: null,
            };
            set((s) => ({
              attachments: { ...s.attachments, items: [...s.attachments.items, item], nextId: id + 1 },
            }));
            if (file.size > ATTACH_LIMIT_BYTES) {
              patch(id, { status: 'error', error: 'too-large' });
              return;
            }
            try {
              const base64 = toBase64(new Uint8Array(await file.arrayBuffer()));
              const saved = await deps.bridge.invoke('workspace.attach', {
                sessionId,
                name: file.name,
                base64,
              });
              patch(id, { status: 'ready', path: saved.path, sha256: saved.sha256, size: saved.bytes });
            } catch (error) {
              patch(id, { status: 'error', error: toErrorBody(error) });
            }
          }),
        );
      },

      removeAttachment(id) {
        set((s) => ({
          attachments: { ...s.attachments, items: s.attachments.items.filter((a) => a.id !== id) },
        }));
      },

      takeAttachments() {
        const { attachments } = get();
        if (attachments.sessionId !== get().conversation?.sessionId) return [];
        const paths = attachments.items.flatMap((a) => (a.status === 'ready' && a.path ? [a.path] : []));
        set({ attachments: { ...attachments, items: [] } });
        return paths;
      },
    };
  };
