/**
 * The Notebook tab's workspace file browser (issue 25) against a fake main: folders open,
 * a file previews as text (never markup) or as an image, a link is shown but never opened,
 * Attach puts the file among the next message's attachments, Save as artifact says the
 * version it made (or why not), and the list is asked again when a cell ends.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope, WorkspaceListing } from '../../src-preload/contract';
import { applyChunks } from '../../src-preload/contract/fold';
import { bridge } from '../../src-renderer/src/api/bridge';
import { WorkspaceFiles } from '../../src-renderer/src/components/panel/WorkspaceFiles';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { openConversation } from '../../src-renderer/src/store/conversationReducer';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

const SESSION = 'session-files';
const b64 = (text: string) => btoa(text);

const FOLDERS: Record<string, WorkspaceListing> = {
  '.': {
    path: '.',
    entries: [
      { name: 'data', path: 'data', kind: 'dir', size: null },
      { name: 'escape', path: 'escape', kind: 'link', size: null },
      { name: 'plot.png', path: 'plot.png', kind: 'file', size: 4 },
      { name: 'blob.bin', path: 'blob.bin', kind: 'file', size: 3 },
    ],
    truncated: false,
  },
  data: { path: 'data', entries: [{ name: 'counts.csv', path: 'data/counts.csv', kind: 'file', size: 30 }], truncated: false },
};

function setup() {
  const answer = (route: string, input: unknown): Envelope<unknown> => {
    const { path } = input as { path: string };
    switch (route) {
      case 'workspace.list':
        return FOLDERS[path] ? { ok: true, data: FOLDERS[path] } : { ok: false, error: { code: 'not_found', message: `No such file or folder in the workspace: "${path}".` } };
      case 'workspace.read':
        if (path === 'data/counts.csv') return { ok: true, data: { path, size: 30, mime: 'text/csv', base64: b64('residue,count\n<b>A</b>,10\n'), truncated: true } };
        if (path === 'plot.png') return { ok: true, data: { path, size: 4, mime: 'image/png', base64: 'iVBORw==', truncated: false } };
        return { ok: true, data: { path, size: 3, mime: 'application/octet-stream', base64: btoa('\x00\x01\x02'), truncated: false } };
      case 'workspace.saveArtifact':
        if (path === 'blob.bin') return { ok: false, error: { code: 'refused', message: 'Refused path "blob.bin": a test refusal.' } };
        return { ok: true, data: { id: 'av_1', path, number: 2 } };
      case 'artifact.list':
        return { ok: true, data: [] };
      default:
        return { ok: false, error: { code: 'internal', message: `no ${route} in this test` } };
    }
  };
  const api = fakeBridgeApi(answer);
  window.openai4s = api;
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  store.setState({ conversation: { ...openConversation(SESSION, 1), status: 'ready' } });
  render(
    <StoreProvider store={store}>
      <WorkspaceFiles sessionId={SESSION} />
    </StoreProvider>,
  );
  const row = (p: string) => screen.getAllByTestId('files-row').find((r) => r.dataset.path === p)!;
  const calls = (route: string) => api.calls.filter((c) => c.route === route).map((c) => c.input);
  return { api, store, row, calls };
}

afterEach(() => {
  cleanup();
  delete (window as unknown as Record<string, unknown>).openai4s;
});

describe('workspace file browser', () => {
  it('opens a folder and previews a file as text, never as markup; a link is not opened', async () => {
    const { row, calls } = setup();
    await waitFor(() => expect(screen.getAllByTestId('files-row')).toHaveLength(4));
    expect(screen.getAllByTestId('files-row').map((r) => r.dataset.kind)).toEqual(['dir', 'link', 'file', 'file']);
    expect(within(row('escape')).queryByTestId('files-open')).toBeNull();
    expect(within(row('escape')).getByText('link')).toBeTruthy();

    fireEvent.click(within(row('data')).getByTestId('files-open'));
    await waitFor(() => expect(screen.getByTestId('workspace-files').dataset.folder).toBe('data'));
    expect(screen.getAllByTestId('files-crumb').map((c) => c.textContent)).toEqual(['workspace', 'data']);
    fireEvent.click(within(await waitFor(() => row('data/counts.csv'))).getByTestId('files-open'));
    const text = await screen.findByTestId('files-preview-text');
    expect(text.textContent).toBe('residue,count\n<b>A</b>,10\n');
    expect(text.querySelector('b')).toBeNull();
    expect(screen.getByTestId('files-preview').textContent).toContain('The first 26 B of 30 B.');
    expect(calls('workspace.read')).toEqual([{ sessionId: SESSION, path: 'data/counts.csv' }]);

    // Back to the workspace; an image is read whole and shown as an image, an unknown binary is not shown.
    fireEvent.click(screen.getAllByTestId('files-crumb')[0]!);
    await waitFor(() => expect(screen.getByTestId('workspace-files').dataset.folder).toBe('.'));
    expect(screen.queryByTestId('files-preview')).toBeNull();
    fireEvent.click(within(row('plot.png')).getByTestId('files-open'));
    expect((await screen.findByTestId('files-preview-image')).getAttribute('src')).toBe('data:image/png;base64,iVBORw==');
    expect(calls('workspace.read').at(-1)).toEqual({ sessionId: SESSION, path: 'plot.png', maxBytes: 8 * 1024 * 1024 });
    fireEvent.click(within(row('blob.bin')).getByTestId('files-open'));
    expect((await screen.findByTestId('files-preview-none')).textContent).toBe('No preview for this kind of file (3 B).');
    fireEvent.click(screen.getByTestId('files-preview-close'));
    expect(screen.queryByTestId('files-preview')).toBeNull();
  });

  it('attaches a file to the next message once, and saves a file as an artifact version or says why not', async () => {
    const { row, store, calls } = setup();
    await waitFor(() => expect(screen.getAllByTestId('files-row')).toHaveLength(4));
    fireEvent.click(within(row('plot.png')).getByTestId('files-attach'));
    expect(store.getState().attachments.items.map((a) => [a.path, a.status])).toEqual([['plot.png', 'ready']]);
    expect((within(row('plot.png')).getByTestId('files-attach') as HTMLButtonElement).disabled).toBe(true);
    // The message carries the workspace path, as an uploaded attachment's does.
    expect(store.getState().takeAttachments()).toEqual(['plot.png']);

    fireEvent.click(within(row('plot.png')).getByTestId('files-save-artifact'));
    expect((await screen.findByTestId('files-saved')).textContent).toBe('Saved plot.png as artifact version 2.');
    expect(calls('artifact.list')).toEqual([{ sessionId: SESSION }]);
    fireEvent.click(within(row('blob.bin')).getByTestId('files-save-artifact'));
    await waitFor(() => expect(screen.getByTestId('files-saved').textContent).toBe('Refused path "blob.bin": a test refusal.'));
  });

  it('lists the folder again when a cell ends (cells write files)', async () => {
    const { store, calls } = setup();
    await waitFor(() => expect(calls('workspace.list')).toHaveLength(1));
    act(() => {
      const conv = store.getState().conversation!;
      const fold = applyChunks(conv.fold, [{ type: 'start' }, { type: 'data-cell', id: 'c1', data: { language: 'python', code: 'x', status: 'ok' } }]);
      store.setState({ conversation: { ...conv, fold } });
    });
    await waitFor(() => expect(calls('workspace.list')).toHaveLength(2));
  });
});
