import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DoctorReport, Envelope } from '../../src-preload/contract';
import { bridge } from '../../src-renderer/src/api/bridge';
import { App } from '../../src-renderer/src/App';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage, NO_SETTINGS, recordedReport, firstRunProviders } from './support';

/** The real app, on the real facade, over a fake `window.openai4s` (what the preload provides). */
function renderApp(
  answer: (route: string, input: unknown) => Envelope<unknown> | Promise<Envelope<unknown>>,
  languages = ['en-US'],
  providers = firstRunProviders(),
) {
  // The sidebar lists sessions at start; these tests are about the doctor report.
  const api = fakeBridgeApi((route, input) => {
    if (route === 'session.list') return { ok: true, data: [] };
    if (route === 'settings.get') return { ok: true, data: NO_SETTINGS };
    if (route === 'provider.list') return { ok: true, data: providers };
    return answer(route, input);
  });
  window.openai4s = api;
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: languages });
  render(
    <StoreProvider store={store}>
      <App />
    </StoreProvider>,
  );
  return { api, store };
}

function openSystem(name = 'System') {
  fireEvent.click(screen.getByRole('button', { name }));
}

afterEach(() => {
  cleanup();
  delete (window as unknown as Record<string, unknown>).openai4s;
});

describe('System panel', () => {
  it('shows every field of a real doctor report', async () => {
    const report = recordedReport();
    const { api } = renderApp(() => ({ ok: true, data: report }));
    openSystem();
    await screen.findByTestId('doctor-report');
    expect(api.calls.filter((c) => c.route === 'doctor.get')).toEqual([
      { route: 'doctor.get', input: {} },
    ]);

    expect(screen.getByTestId('app-version').textContent).toBe(report.version);
    expect(screen.getByTestId('data-dir').textContent).toBe(
      `${report.dataDir}set by OPENAI4S_DATA_DIR`,
    );
    expect(screen.getByTestId('node-version').textContent).toBe(report.node);
    expect(screen.getByTestId('electron-version').textContent).toBe('not running in Electron');
    expect(screen.getByText(`${report.platform} / ${report.arch}`)).toBeTruthy();

    const python = within(screen.getByTestId('card-python'));
    expect(screen.getByTestId('python-path').textContent).toBe(
      '/usr/bin/python3Found via: envs/ declaration',
    );
    expect(screen.getByTestId('python-version').textContent).toBe(report.python.version);
    expect(screen.getByTestId('python-numpy').textContent).toBe(report.python.packages.numpy);
    expect(screen.getByTestId('python-pandas').textContent).toBe(report.python.packages.pandas);
    expect(screen.getByTestId('python-matplotlib').textContent).toBe(
      report.python.packages.matplotlib,
    );
    expect(python.getByText(`Python ${report.python.version}`)).toBeTruthy();

    expect(screen.getByTestId('r-path').textContent).toBe(report.r!.path);
    expect(screen.getByTestId('r-jsonlite').textContent).toBe(report.r!.jsonlite);
    expect(within(screen.getByTestId('card-r')).getByText(`R ${report.r!.version}`)).toBeTruthy();

    expect(screen.getByTestId('sandbox-backend').textContent).toBe(
      `bwrap${report.sandbox.version}${report.sandbox.path}`,
    );
    expect(screen.getByTestId('sandbox-available').textContent).toBe('yes');
    expect(screen.getByTestId('sandbox-mode').textContent).toBe(
      'auto: degrades visibly when unavailable',
    );

    for (const p of report.providers) {
      const row = within(screen.getByTestId(`provider-${p.id}`));
      expect(row.getByText(p.label)).toBeTruthy();
      expect(row.getByText(p.id)).toBeTruthy();
      expect(row.getByText(p.model)).toBeTruthy();
      expect(row.getByText(p.baseUrl)).toBeTruthy();
      // The readiness Settings and the composer show, where provider.list knows the provider.
      const live = firstRunProviders().providers.find((x) => x.id === p.id);
      const status = live ? { ready: 'ready', no_key: 'needs a key', not_running: 'not running' }[live.readiness.state] : p.configured ? 'configured' : 'not configured';
      expect(row.getByText(status)).toBeTruthy();
      expect(row.queryByTestId('provider-default') !== null).toBe(p.isDefault);
    }
    expect(screen.getByTestId('checked-at').getAttribute('data-generated-at')).toBe(
      report.generatedAt,
    );
  });

  it('shows missing pieces with their reasons, the key source and variable, never a key', async () => {
    const report: DoctorReport = recordedReport();
    report.dataDirSource = 'default';
    report.electron = '38.2.0';
    report.python.packages.matplotlib = null;
    report.python.packageReasons = {
      matplotlib: "ModuleNotFoundError: No module named 'matplotlib'",
    };
    report.r = null;
    report.rReason = 'Rscript was not found on PATH; install r-base-core.';
    report.sandbox = {
      backend: 'bwrap',
      available: false,
      mode: 'enforce',
      path: '/usr/bin/bwrap',
      reason: 'bwrap: setting up uid map: Permission denied',
    };
    const ark = report.providers.find((p) => p.id === 'ark')!;
    Object.assign(ark, { configured: true, keySource: 'env', keyVariable: 'OPENAI4S_ARK_API_KEY' });
    const providers = firstRunProviders();
    Object.assign(providers.providers[0]!, { keySource: 'env', keyVariable: 'OPENAI4S_ARK_API_KEY', readiness: { state: 'ready' } });
    renderApp(() => ({ ok: true, data: report }), undefined, providers);
    openSystem();
    await screen.findByTestId('doctor-report');

    expect(screen.getByTestId('data-dir').textContent).toContain('default location');
    expect(screen.getByTestId('electron-version').textContent).toBe('38.2.0');
    expect(screen.getByTestId('python-matplotlib').textContent).toBe(
      "not foundModuleNotFoundError: No module named 'matplotlib'",
    );
    expect(
      within(screen.getByTestId('card-python')).getByText('Python 3.11.2').className,
    ).toContain('pill-warn');
    expect(screen.getByTestId('r-reason').textContent).toBe(report.rReason);
    expect(screen.getByTestId('sandbox-available').textContent).toBe('no');
    expect(screen.getByTestId('sandbox-mode').textContent).toBe(
      'enforce: kernels refuse to start without it',
    );
    expect(screen.getByTestId('sandbox-reason').textContent).toBe(report.sandbox.reason);
    const arkRow = within(screen.getByTestId('provider-ark'));
    expect(arkRow.getByText('environment')).toBeTruthy();
    expect(arkRow.getByText('OPENAI4S_ARK_API_KEY')).toBeTruthy();
    expect(arkRow.getByText('ready')).toBeTruthy();
  });

  it('says a Python too old for the kernels is not usable, and why the sandbox is missing by its case', async () => {
    const report: DoctorReport = recordedReport();
    report.python.version = '3.6.15';
    report.python.reason = 'Python 3.6.15 is too old for the kernels: they need Python 3.7 or newer';
    report.sandbox = { backend: 'none', available: false, mode: 'auto', gap: 'bwrap_missing', reason: 'bubblewrap (bwrap) is not installed (Debian: apt-get install bubblewrap)' };
    renderApp(() => ({ ok: true, data: report }));
    openSystem();
    await screen.findByTestId('doctor-report');
    expect(within(screen.getByTestId('card-python')).getByText('Python 3.6.15').className).toContain('pill-bad');
    expect(screen.getByTestId('python-version').textContent).toBe(`3.6.15${report.python.reason}`);
    expect(screen.getByTestId('sandbox-reason').textContent).toMatch(/^bubblewrap \(bwrap\) is not installed \(Debian\/Ubuntu: sudo apt-get install bubblewrap; Fedora/);
  });

  it('shows an error envelope with its code and message, and recovers on retry', async () => {
    const report = recordedReport();
    let fail = true;
    const { api } = renderApp(() =>
      fail
        ? {
            ok: false,
            error: {
              code: 'unavailable',
              message: 'The doctor probes could not start: spawn /usr/bin/python3 EACCES',
            },
          }
        : { ok: true, data: report },
    );
    openSystem();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The system check failed')).toBeTruthy();
    expect(screen.getByTestId('doctor-error-code').textContent).toBe('unavailable');
    expect(screen.getByTestId('doctor-error-message').textContent).toBe(
      'The doctor probes could not start: spawn /usr/bin/python3 EACCES',
    );
    expect(screen.queryByTestId('doctor-report')).toBeNull();

    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByTestId('doctor-report');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(api.calls.at(-1)).toEqual({ route: 'doctor.get', input: { refresh: true } });
  });

  it('shows a loading state, then Refresh asks for a fresh probe', async () => {
    const report = recordedReport();
    let release: (() => void) | null = null;
    const { api } = renderApp(
      () =>
        new Promise<Envelope<unknown>>((resolve) => {
          release = () => resolve({ ok: true, data: report });
        }),
    );
    openSystem();
    expect(screen.getByRole('status').textContent).toBe('Checking this computer…');
    expect((screen.getByRole('button', { name: 'Checking…' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    release!();
    await screen.findByTestId('doctor-report');
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    // The old report stays on screen while the new probe runs.
    expect(screen.getByTestId('doctor-report')).toBeTruthy();
    release!();
    await screen.findByRole('button', { name: 'Refresh' });
    expect(api.calls.filter((c) => c.route === 'doctor.get').map((c) => c.input)).toEqual([
      {},
      { refresh: true },
    ]);
  });

  it('speaks Chinese on a Chinese system and switches to English from the header', async () => {
    renderApp(() => ({ ok: true, data: recordedReport() }), ['zh-CN']);
    expect(screen.getByRole('heading', { name: '提出一个研究问题' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('zh-CN');
    openSystem('系统');
    await screen.findByTestId('doctor-report');
    expect(screen.getByText('模型服务商')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'English' }));
    expect(screen.getByText('Model providers')).toBeTruthy();
    expect(document.documentElement.lang).toBe('en');
  });
});

describe('shell', () => {
  it('has a New session button, an empty sessions list and the first user story as example', async () => {
    renderApp(() => ({ ok: true, data: recordedReport() }));
    expect(
      (screen.getByRole('button', { name: /New session/ }) as HTMLButtonElement).disabled,
    ).toBe(false);
    expect(await screen.findByText('No sessions yet')).toBeTruthy();
    expect(screen.getByTestId('example-prompt').textContent).toMatch(
      /human insulin \(INS\).*UniProt.*RCSB PDB.*summarize in Chinese/,
    );
  });
});
