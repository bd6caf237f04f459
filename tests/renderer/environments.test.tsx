import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope, KernelStatus } from '../../src-preload/contract';
import type { CurrentEnvironment, EnvironmentList, EnvironmentView } from '../../src-preload/contract/environments';
import { bridge } from '../../src-renderer/src/api/bridge';
import { EnvironmentPicker } from '../../src-renderer/src/components/panel/EnvironmentPicker';
import { KernelPanel } from '../../src-renderer/src/components/panel/KernelPanel';
import { EnvironmentsSection } from '../../src-renderer/src/components/settings/EnvironmentsSection';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

// Issue 18: Settings lists every environment with what it lacks and the install command;
// the Notebook tab's kernel panel switches the session's environment per language.
const SESSION = 'session-env';
const INSTALL = 'python3 -m venv ~/.openai4s/envs/python-science && ~/.openai4s/envs/python-science/bin/pip install rdkit';

function env(id: string, patch: Partial<EnvironmentView> = {}): EnvironmentView {
  return {
    id,
    language: 'python',
    kind: 'system',
    label: id,
    interpreter: '/usr/bin/python3',
    version: '3.11.2',
    declaration: 'python-default',
    packages: [{ name: 'numpy', version: '1.26.0' }],
    missing: [],
    ready: true,
    ...patch,
  };
}

/** main's env.list, env.use and kernel.status over a session whose Python starts on python-default. */
function backend(hold?: { lease: KernelStatus['lease']; switched: Promise<void> }) {
  const current: Record<'python' | 'r', CurrentEnvironment> = {
    python: { environmentId: 'python-default', interpreter: '/usr/bin/python3', isDefault: true },
    r: { environmentId: 'r-default', interpreter: null, isDefault: true },
  };
  const list = (sessionId: string | null): EnvironmentList => ({
    sessionId,
    environments: [
      env('python-default'),
      env('python-science', {
        kind: 'declared',
        declaration: 'python-science',
        packages: [{ name: 'rdkit', version: null }],
        missing: ['rdkit'],
        ready: false,
        installCommand: INSTALL,
      }),
      env('pyenv:3.6.15', { kind: 'pyenv', version: '3.6.15', ready: false, reason: 'Python 3.6.15 is too old for the kernels: they need Python 3.7 or newer' }),
      env('r-default', { language: 'r', interpreter: null, version: null, declaration: 'r-default', packages: [], ready: false, reason: 'Rscript was not found on PATH.' }),
    ],
    current,
    history: [],
  });
  const kernels: KernelStatus = {
    sessionId: SESSION,
    slots: [{ language: 'python', state: 'none', generation: null, sandbox: null, startedAt: null, cells: 0 }],
  };
  return (route: string, input: unknown): Envelope<unknown> | Promise<Envelope<unknown>> => {
    switch (route) {
      case 'env.list':
        return { ok: true, data: list((input as { sessionId?: string }).sessionId ?? null) };
      case 'env.use': {
        const { environmentId } = input as { environmentId: string };
        if (environmentId === 'r-default') return { ok: false, error: { code: 'invalid_input', message: 'Rscript was not found on PATH; install R.' } };
        const apply = (): Envelope<unknown> => {
          current.python = { environmentId, interpreter: '/usr/bin/python3', isDefault: false };
          return { ok: true, data: { change: {}, current, endedGeneration: null } };
        };
        return hold ? hold.switched.then(apply) : apply();
      }
      case 'kernel.status':
        return { ok: true, data: hold ? { ...kernels, lease: hold.lease } : kernels };
      default:
        return { ok: false, error: { code: 'internal', message: `no ${route} in this test` } };
    }
  };
}

function renderWith(node: ReactNode, hold?: Parameters<typeof backend>[0]) {
  const api = fakeBridgeApi(backend(hold));
  window.openai4s = api;
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  render(<StoreProvider store={store}>{node}</StoreProvider>);
  return api;
}

afterEach(() => {
  cleanup();
  delete (window as unknown as Record<string, unknown>).openai4s;
});

describe('environments', () => {
  it('Settings lists each environment with its readiness, a missing package and the command that installs it', async () => {
    const api = renderWith(<EnvironmentsSection />);
    await waitFor(() => expect(screen.getAllByTestId('environment')).toHaveLength(4));
    // No session: the route's default list.
    expect(api.calls.filter((c) => c.route === 'env.list').map((c) => c.input)).toEqual([{}]);
    const science = screen.getAllByTestId('environment').find((e) => e.dataset.id === 'python-science')!;
    expect(science.dataset.ready).toBe('false');
    expect(within(science).getByTestId('environment-missing').textContent).toBe('Missing: rdkit');
    expect(within(science).getByTestId('environment-install').tagName).toBe('CODE');
    expect(within(science).getByTestId('environment-install').textContent).toBe(INSTALL);
    const ready = screen.getAllByTestId('environment').find((e) => e.dataset.id === 'python-default')!;
    expect(ready.textContent).toContain('ready');
    expect(within(ready).queryByTestId('environment-missing')).toBeNull();
    // One too old for the kernels says why, and offers no package to install.
    const old = screen.getAllByTestId('environment').find((e) => e.dataset.id === 'pyenv:3.6.15')!;
    expect(old.textContent).toContain('too old for the kernels');
    expect(within(old).queryByTestId('environment-missing')).toBeNull();
    expect(within(old).queryByTestId('environment-install')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(api.calls.filter((c) => c.route === 'env.list').at(-1)!.input).toEqual({ refresh: true }));
  });

  it('the kernel panel’s picker switches the session’s environment with env.use, then reloads kernels and the list', async () => {
    const api = renderWith(
      <KernelPanel sessionId={SESSION}>
        <EnvironmentPicker sessionId={SESSION} />
      </KernelPanel>,
    );
    const select = (await screen.findByTestId('environment-select-python')) as HTMLSelectElement;
    expect(select.value).toBe('python-default');
    expect([...select.options].map((o) => o.textContent)).toEqual(['python-default (ready)', 'python-science (1 package missing)', 'pyenv:3.6.15 (not usable)']);
    // One that cannot run is shown with why, but not offered.
    expect([...select.options].map((o) => o.disabled)).toEqual([false, false, true]);
    expect(select.options[2]!.title).toMatch(/too old for the kernels/);
    const statusBefore = api.calls.filter((c) => c.route === 'kernel.status').length;
    const listsBefore = api.calls.filter((c) => c.route === 'env.list').length;
    fireEvent.change(select, { target: { value: 'python-science' } });
    await waitFor(() => expect((screen.getByTestId('environment-select-python') as HTMLSelectElement).value).toBe('python-science'));
    // env.use names the session and the environment; its language is the environment's own.
    expect(api.calls.filter((c) => c.route === 'env.use').map((c) => c.input)).toEqual([{ sessionId: SESSION, environmentId: 'python-science' }]);
    expect(api.calls.filter((c) => c.route === 'kernel.status').length).toBeGreaterThan(statusBefore);
    expect(api.calls.filter((c) => c.route === 'env.list').length).toBeGreaterThan(listsBefore);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a switch waiting for the kernel says who holds it, until it is done', async () => {
    let release = () => {};
    const switched = new Promise<void>((resolve) => (release = resolve));
    renderWith(<EnvironmentPicker sessionId={SESSION} />, { lease: { holder: { kind: 'agent', id: 'run-1', label: "the agent's run" }, since: null, waiting: [] }, switched });
    const select = (await screen.findByTestId('environment-select-python')) as HTMLSelectElement;
    fireEvent.change(select, { target: { value: 'python-science' } });
    expect((await screen.findByTestId('environment-waiting')).textContent).toBe('Waiting for the kernel: the agent’s run holds it.');
    expect(select.disabled).toBe(true);
    release();
    await waitFor(() => expect(screen.queryByTestId('environment-waiting')).toBeNull());
    expect((screen.getByTestId('environment-select-python') as HTMLSelectElement).value).toBe('python-science');
  });

  it('shows why a switch failed as an alert', async () => {
    renderWith(<EnvironmentPicker sessionId={SESSION} />);
    const select = await screen.findByTestId('environment-select-r');
    expect((select as HTMLSelectElement).value).toBe('r-default');
    fireEvent.change(select, { target: { value: 'r-default' } });
    expect((await screen.findByRole('alert')).textContent).toBe('Rscript was not found on PATH; install R.');
  });
});
