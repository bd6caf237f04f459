/**
 * The everyday path without a ready provider: sending or a suggested question opens the
 * setup (the message waits there and goes once a provider is saved); a failed run is one
 * sentence with Retry, which starts a run superseding the failed one.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionTestResult, Envelope, ProvidersView, RunRecord, SessionStreamEvent, StreamChunk } from '../../src-preload/contract';
import { bridge } from '../../src-renderer/src/api/bridge';
import { App } from '../../src-renderer/src/App';
import { AnswerCard } from '../../src-renderer/src/components/parts/AnswerCard';
import { SetupDialog } from '../../src-renderer/src/components/setup/SetupDialog';
import { MessageView } from '../../src-renderer/src/components/MessageView';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { conversationReducer, openConversation } from '../../src-renderer/src/store/conversationReducer';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, firstRunProviders, memoryStorage, NO_SETTINGS } from './support';

afterEach(() => {
  cleanup();
  delete (window as unknown as Record<string, unknown>).openai4s;
});

const RUN: RunRecord = {
  id: 'run-1',
  sessionId: 'session-1',
  mutationId: 'm1',
  message: 'What is insulin?',
  status: 'failed',
  failureCode: 'not_configured',
  failureMessage: 'openai: Incorrect API key provided',
  createdAt: '2026-01-01T00:00:00Z',
  startedAt: '2026-01-01T00:00:00Z',
  finishedAt: '2026-01-01T00:00:01Z',
  provider: 'openai',
  model: 'gpt-5-mini',
  usage: null,
  costUsd: null,
};

/** A store over a fake main: provider.list answers `providers`; configure makes OpenAI ready. */
function setup(providers: ProvidersView = firstRunProviders(), extra: (route: string, input: unknown) => Envelope<unknown> | null = () => null) {
  let view = providers;
  const api = fakeBridgeApi((route, input): Envelope<unknown> => {
    const answered = extra(route, input);
    if (answered) return answered;
    if (route === 'session.list') return { ok: true, data: [] };
    if (route === 'settings.get') return { ok: true, data: NO_SETTINGS };
    if (route === 'provider.list') return { ok: true, data: view };
    if (route === 'provider.configure') {
      const id = (input as { providerId: string }).providerId;
      view = { ...view, providers: view.providers.map((p) => (p.id === id ? { ...p, readiness: { state: 'ready' }, storedKeyHint: '••••1234', keySource: 'settings' } : p)) };
      return { ok: true, data: view };
    }
    if (route === 'session.create') return { ok: true, data: { id: 'session-1', title: 'x', revision: 1 } };
    if (route === 'run.submit') return { ok: true, data: { ...RUN, id: 'run-2', status: 'queued', failureCode: null, failureMessage: null } };
    return { ok: false, error: { code: 'internal', message: `no ${route} in this test` } };
  });
  window.openai4s = api;
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  return { api, store };
}

describe('sending without a ready provider', () => {
  it('opens the setup with the message waiting; saving a provider sends it there', async () => {
    const { api, store } = setup();
    render(
      <StoreProvider store={store}>
        <App />
      </StoreProvider>,
    );
    // First run: the welcome screen offers the setup inline, Ark first with its plan.
    const card = await screen.findByTestId('setup-card');
    expect(within(card).getByTestId('ark-plan').textContent).toContain('¥9.9');
    expect(within(card).getByTestId('get-key').getAttribute('href')).toContain('console.ark.example');
    expect(within(card).getByTestId('setup-provider-ollama').textContent).toContain('not running');

    fireEvent.change(screen.getByTestId('composer-input'), { target: { value: 'What is insulin?' } });
    await act(async () => fireEvent.keyDown(screen.getByTestId('composer-input'), { key: 'Enter' }));
    const dialog = await screen.findByTestId('setup-dialog');
    expect(within(dialog).getByTestId('setup-pending')).toBeTruthy();
    expect(api.calls.some((c) => c.route === 'run.submit')).toBe(false);
    expect((screen.getByTestId('composer-input') as HTMLTextAreaElement).value).toBe('What is insulin?');

    // The form: OpenAI, a key, then "Save and send".
    fireEvent.click(within(dialog).getByTestId('setup-provider-openai').querySelector('input')!);
    fireEvent.change(within(dialog).getByTestId('setup-key'), { target: { value: 'sk-test-key-1234' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save and send' })));
    await waitFor(() => expect(api.calls.some((c) => c.route === 'run.submit')).toBe(true));
    expect(api.calls.find((c) => c.route === 'provider.configure')?.input).toEqual({ providerId: 'openai', key: 'sk-test-key-1234', makeDefault: true });
    expect(api.calls.find((c) => c.route === 'run.submit')?.input).toMatchObject({ message: 'What is insulin?', provider: 'openai' });
    await waitFor(() => expect(screen.queryByTestId('setup-dialog')).toBeNull());
    // The conversation view is a chunk of its own: its composer shows once it has loaded.
    await waitFor(() => expect((screen.getByTestId('composer-input') as HTMLTextAreaElement).value).toBe(''));
    expect(store.getState().provider).toBe('openai');
  });

  it('a suggested question (the demo’s) opens the setup instead of starting a run that would fail', async () => {
    const { api, store } = setup();
    await store.getState().loadProviders();
    render(
      <StoreProvider store={store}>
        <AnswerCard answer={{ summary: 'Demo.', claims: [], limitations: ['replay'], next_steps: [], suggested_questions: ['How stable is insulin?'], artifacts: [], completion_bullets: ['done'], cited: true }} canAsk />
        <SetupDialog />
      </StoreProvider>,
    );
    await act(async () => fireEvent.click(screen.getByTestId('suggested-question')));
    expect(await screen.findByTestId('setup-dialog')).toBeTruthy();
    expect(store.getState().setup).toMatchObject({ open: true, providerId: 'ark', pending: { text: 'How stable is insulin?' } });
    expect(api.calls.some((c) => c.route === 'run.submit' || c.route === 'session.create')).toBe(false);
  });
});

/** The setup dialog of `providerId`, over the providers main lists. */
async function openSetupDialog(store: ReturnType<typeof setup>['store'], providerId: string): Promise<HTMLElement> {
  await store.getState().loadProviders();
  store.getState().openSetup(providerId);
  render(
    <StoreProvider store={store}>
      <SetupDialog />
    </StoreProvider>,
  );
  return screen.findByTestId('setup-dialog');
}

describe('the setup in a Chinese window', () => {
  it('names the local provider and why it does not answer in Chinese', async () => {
    const { store } = setup();
    store.getState().setLanguage('zh-CN');
    const dialog = await openSetupDialog(store, 'ollama');
    expect(within(dialog).getByTestId('not-running').textContent).toContain('Ollama（本地） 未在 http://127.0.0.1:11434/v1 运行（连接被拒绝）');
    expect(within(dialog).getByTestId('setup-provider-ark').textContent).toContain('火山方舟（豆包）');
  });
});

describe('Test connection in the form', () => {
  it('explains a refused connection in words, the raw message behind details', async () => {
    const failed: ConnectionTestResult = {
      ok: false,
      providerId: 'ollama',
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'qwen3:8b',
      elapsedMs: 12,
      problem: { errorType: 'network', code: 'ECONNREFUSED', status: null, message: 'Cannot connect to API: connect ECONNREFUSED 127.0.0.1:11434' },
    };
    const { store } = setup(firstRunProviders(), (route) => (route === 'provider.test' ? { ok: true, data: failed } : null));
    const dialog = await openSetupDialog(store, 'ollama');
    expect(within(dialog).getByTestId('not-running').textContent).toContain('ollama serve');
    await act(async () => fireEvent.click(within(dialog).getByTestId('setup-test')));
    const outcome = await within(dialog).findByTestId('test-outcome');
    expect(outcome.dataset.kind).toBe('ollama_not_running');
    expect(outcome.querySelector('p')!.textContent).toBe('Ollama is not running at http://127.0.0.1:11434/v1. Start it with “ollama serve” in a terminal, then retry.');
    expect(within(outcome).getByTestId('problem-details').textContent).toContain('ECONNREFUSED 127.0.0.1:11434');
  });
});

describe('where keys cannot be stored', () => {
  it('says why in the window’s language, from the case main names (no keyring: the backend that would store them unprotected)', async () => {
    const reason = 'No keyring is running (safeStorage backend "basic_text" would store keys unprotected). Start GNOME Keyring or KWallet, or set OPENAI4S_<PROVIDER>_API_KEY in the environment instead.';
    const { store } = setup({ ...firstRunProviders(), keyStorage: { available: false, reason, code: 'no-keyring', backend: 'basic_text' } });
    store.getState().setLanguage('zh-CN');
    const dialog = await openSetupDialog(store, 'ark');
    expect(within(dialog).getByTestId('no-key-storage').textContent).toBe(
      '此处无法保存密钥：没有运行中的密钥环（“basic_text”存储会让密钥处于未受保护状态）。请启动 GNOME Keyring 或 KWallet，或改在环境变量中设置 OPENAI4S_<PROVIDER>_API_KEY。',
    );
    act(() => store.getState().setLanguage('en'));
    expect(within(dialog).getByTestId('no-key-storage').textContent).toBe(
      'Keys cannot be stored here: no keyring is running (the “basic_text” store would keep keys unprotected). Start GNOME Keyring or KWallet, or set OPENAI4S_<PROVIDER>_API_KEY in the environment instead.',
    );
  });

  it('keeps main’s own words for a case it does not name', async () => {
    const { store } = setup({ ...firstRunProviders(), keyStorage: { available: false, reason: 'a reason this window has no words for' } });
    const dialog = await openSetupDialog(store, 'ark');
    expect(within(dialog).getByTestId('no-key-storage').textContent).toBe('Keys cannot be stored here: a reason this window has no words for');
  });
});

describe('a failed run', () => {
  const chunks: StreamChunk[] = [
    { type: 'user-message', messageId: 'user-run-1', text: 'What is insulin?' },
    { type: 'start', messageId: 'run-1', messageMetadata: { provider: 'openai', model: 'gpt-5-mini' } },
    { type: 'text-start', id: 't1' },
    { type: 'text-delta', id: 't1', delta: 'Insulin is a peptide' },
    { type: 'text-end', id: 't1' },
    {
      type: 'message-metadata',
      messageMetadata: { run: { status: 'failed', failureCode: 'not_configured', failureMessage: 'openai: Incorrect API key provided', turns: 1, providerError: { errorType: 'authentication', code: 'invalid_api_key', status: 401, provider: 'openai' } } },
    },
    { type: 'error', errorText: 'openai: Incorrect API key provided', errorCode: 'not_configured', errorType: 'authentication' },
    { type: 'finish', finishReason: 'error' },
  ];

  function renderFailed() {
    const providers = firstRunProviders();
    providers.providers[1]!.readiness = { state: 'ready' };
    const { api, store } = setup(providers);
    const events: SessionStreamEvent[] = chunks.map((chunk, i) => ({ sessionId: 'session-1', seq: i + 1, runId: 'run-1', chunk }));
    store.setState({ conversation: conversationReducer(openConversation('session-1', 1), { type: 'conv/loaded', loadId: 1, events, runs: [RUN] }), provider: 'openai' });
    const message = store.getState().conversation!.fold.messages.find((m) => m.role === 'assistant')!;
    render(
      <StoreProvider store={store}>
        <MessageView message={message} sessionId="session-1" live={false} canAsk />
      </StoreProvider>,
    );
    return { api, store };
  }

  it('shows one sentence with the fix, Retry and the setup, the raw message only behind details', async () => {
    const { store } = renderFailed();
    await act(() => store.getState().loadProviders());
    const failure = screen.getByTestId('run-failure');
    expect(failure.dataset.kind).toBe('bad_key');
    expect(failure.textContent).toContain('OpenAI refused the API key. Check that you pasted the whole key, or create a new one, then retry.');
    expect(within(failure).getByTestId('failure-partial')).toBeTruthy();
    expect(within(failure).getByTestId('problem-details').textContent).toContain('Incorrect API key provided');
    // The partial text stays readable; the closing error is not shown a second time, and no code is the headline.
    expect(screen.getByTestId('assistant-message').textContent).toContain('Insulin is a peptide');
    expect(screen.queryByTestId('error-part')).toBeNull();
    expect(screen.getByTestId('run-footer').textContent).not.toContain('not_configured');
    fireEvent.click(within(failure).getByTestId('failure-setup'));
    expect(store.getState().setup).toMatchObject({ open: true, providerId: 'openai' });
  });

  it('Retry asks the same question again in a run that supersedes the failed one', async () => {
    const { api } = renderFailed();
    await act(async () => fireEvent.click(screen.getByTestId('failure-retry')));
    await waitFor(() => expect(api.calls.some((c) => c.route === 'run.submit')).toBe(true));
    expect(api.calls.find((c) => c.route === 'run.submit')?.input).toMatchObject({ sessionId: 'session-1', message: 'What is insulin?', provider: 'openai', supersedes: 'run-1' });
  });
});
