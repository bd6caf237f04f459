/**
 * The Notebook tab's cells are the one place a user runs code in the session's kernels
 * (issue 25; the kernel panel's old "Run code" box is gone, its behaviour lives here):
 * Ctrl/⌘+Enter runs, a running cell shows it and runs nothing twice, output, figures and
 * errors show in the cell's card as text (never HTML), a figure saves as PNG and shows its
 * file, Interrupt stops it, and a run that could not start says why.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ArtifactSummary, Envelope, KernelCellResult, KernelLanguage, KernelStatus, UserCellRecord } from '../../src-preload/contract';
import { bridge } from '../../src-renderer/src/api/bridge';
import { UserNotebook } from '../../src-renderer/src/components/panel/UserNotebook';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

const SESSION = 'session-cells';

const FIGURE: ArtifactSummary = {
  id: 'art_aaaaaaaaaaaaaaaa',
  sessionId: SESSION,
  path: 'figures/answer.png',
  versions: 1,
  latest: {
    id: 'av_aaaaaaaaaaaaaaaa', artifactId: 'art_aaaaaaaaaaaaaaaa', sessionId: SESSION, number: 1, path: 'figures/answer.png',
    sha256: 'a'.repeat(64), size: 4, mime: 'image/png', createdAt: '2026-01-01T00:00:00.000Z',
    provenance: {
      producer: { kind: 'cell', cellId: 'cell-1', generation: 'gen-aaaaaaaa1111', language: 'python' },
      environment: { status: 'missing', language: 'python', reason: 'not recorded in this test' },
      inputEvidence: [],
      created_at: '2026-01-01T00:00:00.000Z',
    },
    evidenceId: 'ev_1',
  },
};

interface Pending {
  language: KernelLanguage;
  finish(result: Partial<KernelCellResult>): void;
}

/**
 * main as the notebook sees it: kernel.execute stays pending until the test finishes it
 * (then the run is recorded as a version, as NotebookCells does), kernel.interrupt ends
 * the pending cell as interrupted, and a language in `unavailable` has no kernel.
 */
function kernelBackend(unavailable: KernelLanguage[] = []) {
  const pending: Pending[] = [];
  const figures: ArtifactSummary[] = [];
  const versions: UserCellRecord[] = [];
  let cells = 0;
  const status = (): KernelStatus => ({
    sessionId: SESSION,
    slots: [{ language: 'python', state: pending.length ? 'busy' : 'idle', generation: 'gen-aaaaaaaa1111', sandbox: { state: 'sandboxed', backend: 'bwrap' }, startedAt: null, cells }],
    lease: { holder: null, since: null, waiting: [] },
  });
  const answer = (route: string, input: unknown): Envelope<unknown> | Promise<Envelope<unknown>> => {
    const { language, code, cellKey } = input as { language: KernelLanguage; code: string; cellKey?: string };
    switch (route) {
      case 'kernel.status':
        return { ok: true, data: status() };
      case 'notebook.cells':
        return { ok: true, data: versions };
      case 'kernel.execute':
        if (unavailable.includes(language))
          return { ok: false, error: { code: 'unavailable', message: `No ${language} interpreter was found: install it, or pick another environment.` } };
        return new Promise((resolve) => {
          const entry: Pending = {
            language,
            finish(partial) {
              pending.splice(pending.indexOf(entry), 1);
              const cellNumber = ++cells;
              const result: KernelCellResult = {
                sessionId: SESSION, language, generation: 'gen-aaaaaaaa1111', cellId: `cell-${cellNumber}`, cellNumber,
                status: 'ok', stdout: '', stderr: '', displays: [], truncated: false, sandbox: { state: 'sandboxed', backend: 'bwrap' }, ...partial,
              };
              const key = cellKey ?? `uc_${cellNumber}`;
              const version = versions.filter((v) => v.cellKey === key).length + 1;
              versions.push({ id: `v${cellNumber}`, sessionId: SESSION, cellKey: key, version, language, code, status: result.status, generation: result.generation, result, evidenceId: null, hostCalls: [], startedAt: 't', finishedAt: 't' });
              resolve({ ok: true, data: { ...result, userCell: { id: `v${cellNumber}`, cellKey: key, version } } });
            },
          };
          pending.push(entry);
        });
      case 'artifact.list':
        return { ok: true, data: figures };
      case 'artifact.reveal':
        return { ok: true, data: { revealed: true, path: '/data/blobs/aa' } };
      case 'artifact.read':
        return { ok: true, data: { versionId: FIGURE.latest.id, mime: 'image/png', size: 4, base64: 'iVBORw==', truncated: false } };
      case 'kernel.interrupt': {
        const cell = pending.find((p) => p.language === language);
        cell?.finish({ status: 'interrupted', stderr: 'KeyboardInterrupt\n' });
        return { ok: true, data: { interrupted: Boolean(cell) } };
      }
      default:
        return { ok: false, error: { code: 'internal', message: `no ${route} in this test` } };
    }
  };
  return { pending, figures, answer };
}

async function renderNotebook(unavailable: KernelLanguage[] = []) {
  const backend = kernelBackend(unavailable);
  const api = fakeBridgeApi(backend.answer);
  window.openai4s = api;
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  render(
    <StoreProvider store={store}>
      <UserNotebook sessionId={SESSION} />
    </StoreProvider>,
  );
  await store.getState().loadKernels(SESSION);
  const executes = () => api.calls.filter((c) => c.route === 'kernel.execute').map((c) => c.input);
  /** Adds a cell of that language and answers its editor, card and Run button. */
  const addCell = (language: KernelLanguage) => {
    fireEvent.click(screen.getByTestId(language === 'python' ? 'notebook-add-python' : 'notebook-add-r'));
    const cell = screen.getAllByTestId('user-cell').at(-1)!;
    return {
      cell,
      input: within(cell).getByTestId('user-cell-input') as HTMLTextAreaElement,
      runButton: within(cell).getByTestId('user-cell-run') as HTMLButtonElement,
    };
  };
  return { api, backend, store, executes, addCell };
}

afterEach(() => {
  cleanup();
  delete (window as unknown as Record<string, unknown>).openai4s;
});

describe('notebook cells: running code', () => {
  it('runs the typed code on Ctrl+Enter, shows it running, then shows its output and figure', async () => {
    const { backend, executes, addCell, api } = await renderNotebook();
    const { cell, input, runButton } = addCell('python');
    expect(runButton.disabled).toBe(true); // nothing to run yet
    fireEvent.change(input, { target: { value: 'x = 6 * 7\nprint(x)' } });
    expect(runButton.disabled).toBe(false);
    // A plain Enter is a new line, not a run.
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(executes()).toEqual([]);

    fireEvent.keyDown(input, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(backend.pending).toHaveLength(1));
    expect(executes()).toEqual([{ sessionId: SESSION, language: 'python', code: 'x = 6 * 7\nprint(x)' }]);
    expect(cell.dataset.status).toBe('running');
    expect(within(cell).getByTestId('user-cell-running').textContent).toContain('Running…');
    expect(runButton.disabled).toBe(true);
    // A second Ctrl+Enter while it runs starts nothing.
    fireEvent.keyDown(input, { key: 'Enter', ctrlKey: true });
    expect(executes()).toHaveLength(1);

    const statusBefore = api.calls.filter((c) => c.route === 'kernel.status').length;
    backend.figures.push(FIGURE);
    backend.pending[0]!.finish({
      stdout: '42\n',
      usage: { wallMs: 12, cpuMs: 10, peakRssKb: null },
      displays: [{ data: { 'text/plain': '<figure 1 saved as figures/answer.png>' }, path: 'figures/answer.png', bytes: 4 }],
    });
    // The new cell becomes its recorded cell (a new element, keyed by its cellKey).
    await waitFor(() => expect(screen.getByTestId('user-cell').dataset.status).toBe('ok'));
    const recorded = screen.getByTestId('user-cell');
    expect(recorded.dataset.version).toBe('1');
    const card = within(recorded).getByTestId('cell-card');
    expect(within(card).getByTestId('cell-output').textContent).toBe('42\n');
    // The saved figure is looked up among the session's artifacts and shown as an image.
    const img = (await within(card).findByTestId('cell-figure-img')) as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('data:image/png;base64,iVBORw==');
    // Show file: the figure's artifact version in the OS file manager.
    fireEvent.click(within(card).getByTestId('figure-reveal'));
    await waitFor(() => expect(api.calls.filter((c) => c.route === 'artifact.reveal').map((c) => c.input)).toEqual([{ versionId: FIGURE.latest.id }]));
    // Save as PNG: the figure's own bytes, downloaded under its file name.
    const downloads: { href: string; download: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push({ href: this.href, download: this.download });
    });
    try {
      fireEvent.click(within(card).getByTestId('figure-save-png'));
      await waitFor(() => expect(downloads).toEqual([{ href: 'data:image/png;base64,iVBORw==', download: 'answer.png' }]));
    } finally {
      click.mockRestore();
    }
    expect(within(recorded).queryByTestId('user-cell-running')).toBeNull();
    expect((within(recorded).getByTestId('user-cell-run') as HTMLButtonElement).disabled).toBe(false);
    // The kernel rows are asked again: the kernel may have started or died.
    await waitFor(() => expect(api.calls.filter((c) => c.route === 'kernel.status').length).toBeGreaterThan(statusBefore));
  });

  it('runs an R cell with Cmd+Enter and shows an error with its traceback and failing line', async () => {
    const { backend, executes, addCell } = await renderNotebook();
    const { input } = addCell('r');
    fireEvent.change(input, { target: { value: 'x <- 1\nstop("no counts")' } });
    fireEvent.keyDown(input, { key: 'Enter', metaKey: true });
    await waitFor(() => expect(backend.pending).toHaveLength(1));
    expect(executes()).toEqual([{ sessionId: SESSION, language: 'r', code: 'x <- 1\nstop("no counts")' }]);
    // The code cannot change under a running cell.
    expect(input.readOnly).toBe(true);

    backend.pending[0]!.finish({
      status: 'error',
      stderr: 'Warning: something odd\n',
      error: { ename: 'simpleError', evalue: 'no counts', traceback: 'Error in eval(): no counts\nCalls: <cell-1> -> stop', line: 2 },
    });
    const card = await screen.findByTestId('cell-card');
    expect(card.dataset.status).toBe('error');
    const error = within(card).getByTestId('cell-error');
    expect(error.textContent).toContain('simpleError: no counts');
    expect(error.textContent).toContain('line 2');
    expect(error.querySelector('pre')!.textContent).toBe('Error in eval(): no counts\nCalls: <cell-1> -> stop');
    expect(within(card).getByTestId('cell-output').textContent).toBe('Warning: something odd\n');
  });

  it('interrupts the running cell from its bar and shows it interrupted', async () => {
    const { backend, api, addCell } = await renderNotebook();
    const { cell, input } = addCell('python');
    fireEvent.change(input, { target: { value: 'while True: pass' } });
    fireEvent.click(within(cell).getByTestId('user-cell-run'));
    await waitFor(() => expect(backend.pending).toHaveLength(1));
    fireEvent.click(within(cell).getByTestId('user-cell-interrupt'));
    await waitFor(() => expect(screen.getByTestId('user-cell').dataset.status).toBe('interrupted'));
    expect(api.calls.filter((c) => c.route === 'kernel.interrupt').map((c) => c.input)).toEqual([{ sessionId: SESSION, language: 'python' }]);
    expect(screen.queryByTestId('user-cell-interrupt')).toBeNull();
  });

  it('says why a run could not start, and shows output as text, never as HTML', async () => {
    const { backend, addCell } = await renderNotebook(['r']);
    const r = addCell('r');
    fireEvent.change(r.input, { target: { value: 'print(1)' } });
    fireEvent.keyDown(r.input, { key: 'Enter', ctrlKey: true });
    const alert = await screen.findByTestId('user-cell-error');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(alert.textContent).toBe('No r interpreter was found: install it, or pick another environment.');
    expect(r.cell.dataset.status).toBe('new');

    const py = addCell('python');
    fireEvent.change(py.input, { target: { value: 'print(html)' } });
    fireEvent.keyDown(py.input, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(backend.pending).toHaveLength(1));
    const html = '<img src=x onerror="alert(1)"><b>bold</b>';
    backend.pending[0]!.finish({ stdout: html, displays: [{ data: { 'text/plain': '<script>x()</script>', 'text/html': '<i>hi</i>' } }] });
    const card = await screen.findByTestId('cell-card');
    expect(within(card).getByTestId('cell-output').textContent).toBe(html);
    expect(card.textContent).toContain('<script>x()</script>');
    expect(card.querySelector('img, b, script, i')).toBeNull();
  });
});
