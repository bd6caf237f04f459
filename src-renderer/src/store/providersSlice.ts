import type { ProvidersView } from '../../../src-preload/contract';
import { toErrorBody } from '../api/bridge';
import { createLoader, idle } from './loadable';
import type { ProvidersSlice, SetupState } from './providersTypes';
import { setupNeededFor, targetProvider } from './readiness';
import type { Slice, StoreDeps } from './types';

const CLOSED: SetupState = { open: false, providerId: null, pending: null };

export const createProvidersSlice =
  (deps: StoreDeps): Slice<ProvidersSlice> =>
  (set, get) => {
    const load = createLoader<ProvidersSlice['providers']>((change) =>
      set((s) => ({ providers: change(s.providers) })),
    );

    /** Sends the message that waited for the setup, to the provider just saved, if it is ready now. */
    const sendPending = async (view: ProvidersView, providerId: string): Promise<void> => {
      const pending = get().setup.pending;
      if (!pending) return;
      const target = targetProvider(view, providerId);
      if (!target || target.readiness.state !== 'ready') return;
      set({ setup: CLOSED });
      // The composer shows the provider the message went to.
      get().setModelChoice(providerId, null);
      const { model: _model, ...rest } = pending.options;
      const sent = await get().sendMessage(pending.text, { ...rest, provider: providerId });
      if (sent && pending.fromDraft && get().draft.trim() === pending.text.trim()) get().setDraft('');
    };

    return {
      providers: idle<ProvidersView | null>(null),
      setup: CLOSED,
      loadProviders: (refresh = false) =>
        load(() => deps.bridge.invoke('provider.list', refresh ? { refresh: true } : {})),
      async configureProvider(input) {
        try {
          const view = await deps.bridge.invoke('provider.configure', input);
          set({ providers: { status: 'ready', data: view, error: null } });
          // Settings (the default, the key's hint) and the System page show what was saved.
          void get().loadSettings();
          void get().loadDoctor();
          await sendPending(view, input.providerId);
          return { view };
        } catch (error) {
          return { error: toErrorBody(error) };
        }
      },
      async testProvider(input) {
        try {
          return await deps.bridge.invoke('provider.test', input);
        } catch (error) {
          return { error: toErrorBody(error) };
        }
      },
      openSetup(providerId = null, pending = null) {
        set({ setup: { open: true, providerId, pending } });
      },
      closeSetup() {
        set({ setup: CLOSED });
      },
      async ask(text, options, fromDraft = false) {
        const message = text.trim();
        if (!message) return 'failed';
        let blocked = setupNeededFor(get().providers.data, options.provider);
        // A local server may have been started since the last check: ask it again before blocking.
        if (blocked && targetProvider(get().providers.data, options.provider)?.local) {
          await get().loadProviders(true);
          blocked = setupNeededFor(get().providers.data, options.provider);
        }
        if (blocked) {
          get().openSetup(blocked, { text: message, options, fromDraft });
          return 'setup';
        }
        return (await get().sendMessage(message, options)) ? 'sent' : 'failed';
      },
    };
  };
