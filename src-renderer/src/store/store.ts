import { createStore, type StoreApi } from 'zustand/vanilla';
import { chooseLanguage, LANGUAGE_STORAGE_KEY } from '../i18n/language';
import type { SessionStreamEvent } from '../../../src-preload/contract';
import { createDelegationSlice } from './delegationSlice';
import { createConversationSlice } from './conversationSlice';
import { createEnvironmentsSlice } from './environmentsSlice';
import { createFrameBatcher } from './frameBatcher';
import { createKernelsSlice } from './kernelsSlice';
import { createMemorySlice } from './memorySlice';
import { createComputeSlice } from './computeSlice';
import { createProvidersSlice } from './providersSlice';
import { createRetrySlice } from './retrySlice';
import { createMcpSlice } from './mcpSlice';
import { createNotebookSlice } from './notebookSlice';
import { createFilesSlice } from './filesSlice';
import { createPanelsSlice } from './panelsSlice';
import { createSessionsSlice } from './sessionsSlice';
import { createSettingsSlice } from './settingsSlice';
import { createSkillsSlice } from './skillsSlice';
import { createWorkspaceSlice } from './workspaceSlice';
import { createWorkbenchSlice } from './workbenchSlice';
import { createNoticesSlice, createSystemSlice, createUiSlice } from './slices';
import type { AppState, StoreDeps } from './types';

export type AppStore = StoreApi<AppState>;

export interface CreateStoreOptions extends StoreDeps {
  /** navigator.languages (or [navigator.language]): decides the default language. */
  systemLanguages: readonly string[];
}

function savedLanguage(storage: StoreDeps['storage']): string | null {
  try {
    return storage?.getItem(LANGUAGE_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

/** One store per window, made of slices; each slice's state changes go through a pure reducer. */
export function createAppStore(options: CreateStoreOptions): AppStore {
  const language = chooseLanguage(savedLanguage(options.storage), options.systemLanguages);
  return createStore<AppState>()((...a) => ({
    ...createUiSlice(options, language)(...a),
    ...createSystemSlice(options)(...a),
    ...createNoticesSlice()(...a),
    ...createSessionsSlice(options)(...a),
    ...createConversationSlice(options)(...a),
    ...createPanelsSlice(options)(...a),
    ...createSettingsSlice(options)(...a),
    ...createWorkspaceSlice(options)(...a),
    ...createSkillsSlice(options)(...a),
    ...createKernelsSlice(options)(...a),
    ...createEnvironmentsSlice(options)(...a),
    ...createDelegationSlice(options)(...a),
    ...createMemorySlice(options)(...a),
    ...createMcpSlice(options)(...a),
    ...createNotebookSlice(options)(...a),
    ...createFilesSlice(options)(...a),
    ...createComputeSlice(options)(...a),
    ...createProvidersSlice(options)(...a),
    ...createRetrySlice()(...a),
    ...createWorkbenchSlice(options)(...a),
  }));
}

/** Subscribes the store to main's events; returns the unsubscribe. */
export function connectEvents(
  store: AppStore,
  bridge: StoreDeps['bridge'],
  scheduleFrame?: StoreDeps['scheduleFrame'],
): () => void {
  // Stream chunks are folded at most once per animation frame, in arrival order.
  const batcher = createFrameBatcher<SessionStreamEvent>(
    (events) => store.getState().receiveStream(events),
    scheduleFrame,
  );
  const offs = [
    bridge.on('app.notice', (notice) => store.getState().receiveNotice(notice)),
    bridge.on('session.stream', (event) => batcher.push(event)),
  ];
  return () => {
    for (const off of offs) off();
  };
}
