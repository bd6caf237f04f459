import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { AppState } from './types';
import type { AppStore } from './store';

const StoreContext = createContext<AppStore | null>(null);

export function StoreProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

export function useAppStore<T>(selector: (state: AppState) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useAppStore needs a <StoreProvider> above it.');
  return useStore(store, selector);
}

/** The store itself, for event handlers that read the current state when they fire (not on render). */
export function useAppStoreApi(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useAppStoreApi needs a <StoreProvider> above it.');
  return store;
}
