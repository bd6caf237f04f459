import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArtifactSummary, Envelope, KernelCellResult, KernelLanguage, KernelStatus } from '../../src-preload/contract';
import { bridge } from '../../src-renderer/src/api/bridge';
import { KernelPanel } from '../../src-renderer/src/components/panel/KernelPanel';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { openConversation } from '../../src-renderer/src/store/conversationReducer';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

const SESSION = 'session-run';

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
  code: string;
  finish(result: Partial<KernelCellResult>): void;
}

/**
 * main as the panel sees it: kernel.execute stays pending until the test finishes it (so
 * the running state can be looked at), kernel.interrupt ends the pending cell as
 * interrupted, and a language in `unavailable` has no kernel.
 */
function kernelBackend(unavailable: KernelLanguage[] = []) {
  const pending: Pending[] = [];
  const figures: ArtifactSummary[] = [];
  let cells = 0;
  const status = (): KernelStatus => ({
    sessionId: SESSION,
    slots: [
      { language: 'python', state: pending.length ? 'busy' : 'idle', generation: 'gen-aaaaaaaa1111', sandbox: { state: 'sandboxed', backend: 'bwrap' }, startedAt: '2026-01-01T00:00:00.000Z', cells },
      { language: 'r', state: 'none', generation: null, sandbox: null, startedAt: null, cells: 0 },
    ],
  });
  const answer = (route: string, input: unknown): Envelope<unknown> | Promise<Envelope<unknown>> => {
    const { language, code } = input as { language: KernelLanguage; code: string };
    switch (route) {
      case 'kernel.status':
        return { ok: true, data: status() };
      case 'kernel.execute':
        if (unavailable.includes(language))
          return { ok: false, error: { code: 'unavailable', message: `No ${language} interpreter was found: install it, or pick another environment.` } };
        return new Promise((resolve) => {
          const entry: Pending = {
            language,
            code,
            finish(result) {
              pending.splice(pending.indexOf(entry), 1);
              const cellNumber = ++cells;
              resolve({
                ok: true,
                data: {
                  sessionId: SESSION, language, generation: 'gen-aaaaaaaa1111', cellId: `cell-${cellNumber}`, cellNumber,
                  status: 'ok', stdout: '', stderr: '', displays: [], truncated: false,
                  sandbox: { state: 'sandboxed', backend: 'bwrap' }, ...result,
                } satisfies KernelCellResult,
              });
            },
          };
          pending.push(entry);
        });
      // A figure the cell saved, once it is an artifact of the session.
      case 'artifact.list':
        return { ok: true, data: figures };
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

function renderPanel(unavailable: KernelLanguage[] = []) {
  const backend = kernelBackend(unavailable);
  const api = fakeBridgeApi(backend.answer);
  window.openai4s = api;
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  store.setState({ conversation: { ...openConversation(SESSION, 1), status: 'ready' } });
  render(
    <StoreProvider store={store}>
      <KernelPanel sessionId={SESSION} />
    </StoreProvider>,
  );
  const runner = screen.getByTestId('code-runner');
  const input = screen.getByRole('textbox', { name: 'Code to run in this session’s kernel' }) as HTMLTextAreaElement;
  const runButton = within(runner).getByRole('button', { name: 'Run' }) as HTMLButtonElement;
  const executes = () => api.calls.filter((c) => c.route === 'kernel.execute').map((c) => c.input);
  return { api, backend, store, runner, input, runButton, executes };
}

afterEach(() => {
  cleanup();
  delete (window as unknown as Record<string, unknown>).openai4s;
});

describe('kernel panel: Run code', () => {
  it('runs the typed code on Ctrl+Enter, shows it running, then shows its output', async () => {
    const { backend, runner, input, runButton, executes, api } = renderPanel();
    expect(runButton.disabled).toBe(true); // nothing to run yet
    fireEvent.change(input, { target: { value: 'x = 6 * 7\nprint(x)' } });
    expect(runButton.disabled).toBe(false);
    // A plain Enter is a new line, not a run.
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(executes()).toEqual([]);

    fireEvent.keyDown(input, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(backend.pending).toHaveLength(1));
    expect(executes()).toEqual([{ sessionId: SESSION, language: 'python', code: 'x = 6 * 7\nprint(x)' }]);
    expect(runner.dataset.status).toBe('running');
    expect(screen.getByTestId('code-runner-running').textContent).toContain('Running…');
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
    await waitFor(() => expect(runner.dataset.status).toBe('done'));
    const result = screen.getByTestId('code-runner-result');
    const card = within(result).getByTestId('cell-card');
    expect(card.dataset.status).toBe('ok');
    expect(within(card).getByTestId('cell-output').textContent).toBe('42\n');
    expect(within(card).getByTestId('cell-code').textContent).toContain('print(x)');
    // The saved figure is looked up among the session's artifacts and shown as an image.
    const img = (await within(card).findByTestId('cell-figure-img')) as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('data:image/png;base64,iVBORw==');
    expect(screen.queryByTestId('code-runner-running')).toBeNull();
    expect(runButton.disabled).toBe(false);
    // The rows above are asked again: the kernel may have started or died.
    await waitFor(() => expect(api.calls.filter((c) => c.route === 'kernel.status').length).toBeGreaterThan(statusBefore));
  });

  it('runs in the chosen language with Cmd+Enter and shows an error with its traceback and failing line', async () => {
    const { backend, input, executes } = renderPanel();
    fireEvent.change(screen.getByRole('combobox', { name: 'Kernel language' }), { target: { value: 'r' } });
    fireEvent.change(input, { target: { value: 'x <- 1\nstop("no counts")' } });
    fireEvent.keyDown(input, { key: 'Enter', metaKey: true });
    await waitFor(() => expect(backend.pending).toHaveLength(1));
    expect(executes()).toEqual([{ sessionId: SESSION, language: 'r', code: 'x <- 1\nstop("no counts")' }]);
    // The language cannot change under a running cell.
    expect((screen.getByRole('combobox', { name: 'Kernel language' }) as HTMLSelectElement).disabled).toBe(true);

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
    expect(card.querySelector('.error-line')!.textContent).toContain('stop("no counts")');
  });

  it('interrupts the running cell and shows it interrupted', async () => {
    const { backend, runner, input, api } = renderPanel();
    fireEvent.change(input, { target: { value: 'while True: pass' } });
    fireEvent.click(within(runner).getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(backend.pending).toHaveLength(1));
    fireEvent.click(within(runner).getByRole('button', { name: 'Interrupt' }));
    await waitFor(() => expect(runner.dataset.status).toBe('done'));
    expect(api.calls.filter((c) => c.route === 'kernel.interrupt').map((c) => c.input)).toEqual([
      { sessionId: SESSION, language: 'python' },
    ]);
    expect(screen.getByTestId('cell-card').dataset.status).toBe('interrupted');
    expect(within(runner).queryByRole('button', { name: 'Interrupt' })).toBeNull();
  });

  it('says why a run could not start, and shows output as text, never as HTML', async () => {
    const { backend, runner, input } = renderPanel(['r']);
    fireEvent.change(screen.getByRole('combobox', { name: 'Kernel language' }), { target: { value: 'r' } });
    fireEvent.change(input, { target: { value: 'print(1)' } });
    fireEvent.keyDown(input, { key: 'Enter', ctrlKey: true });
    const alert = await screen.findByTestId('code-runner-error');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(alert.textContent).toBe('No r interpreter was found: install it, or pick another environment.');
    expect(runner.dataset.status).toBe('error');

    fireEvent.change(screen.getByRole('combobox', { name: 'Kernel language' }), { target: { value: 'python' } });
    fireEvent.keyDown(input, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(backend.pending).toHaveLength(1));
    const html = '<img src=x onerror="alert(1)"><b>bold</b>';
    backend.pending[0]!.finish({ stdout: html, displays: [{ data: { 'text/plain': '<script>x()</script>', 'text/html': '<i>hi</i>' } }] });
    const card = await screen.findByTestId('cell-card');
    expect(screen.queryByTestId('code-runner-error')).toBeNull();
    expect(within(card).getByTestId('cell-output').textContent).toBe(html);
    expect(card.textContent).toContain('<script>x()</script>');
    expect(card.querySelector('img, b, script, i')).toBeNull();
  });
});
