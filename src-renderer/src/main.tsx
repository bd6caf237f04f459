import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { bridge } from './api/bridge';
import { App } from './App';
import { preloadViews } from './components/layout/lazyViews';
import { afterFirstPaint } from './afterFirstPaint';
import { preloadMarkdown } from './components/parts/Markdown';
import { StoreProvider } from './store/context';
import { connectEvents, createAppStore } from './store/store';
import { applyTheme } from './theme';
import './styles/app.css';
import './styles/workbench.css';
import './styles/story.css';
import './styles/liveRun.css';

function localStorageOrNull(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const store = createAppStore({
  bridge,
  storage: localStorageOrNull(),
  systemLanguages: navigator.languages?.length ? navigator.languages : [navigator.language],
});
// The stored theme before the first render, so a dark system never flashes light.
applyTheme(store.getState().theme);
try {
  connectEvents(store, bridge);
} catch (error) {
  // Without the bridge the shell still renders; the System panel shows the error.
  console.error(error);
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');
createRoot(root).render(
  <StrictMode>
    <StoreProvider store={store}>
      <App />
    </StoreProvider>
  </StrictMode>,
);

// The other views and the markdown renderer are not needed for the first paint; fetch them once it is painted and the window is idle.
afterFirstPaint(() => {
  preloadViews();
  preloadMarkdown();
});
