import { useCallback, useEffect, useState } from 'react';
import { Header } from './components/Header';
import { Notices } from './components/Notices';
import { Sidebar } from './components/Sidebar';
import { SetupDialog } from './components/setup/SetupDialog';
import { Welcome } from './components/Welcome';
import { useAppStore } from './store/context';
import { applyTheme } from './theme';
import { Conversation, RightPanel, SettingsPanel, ShortcutsHelp, SkillsPage, SystemPanel } from './components/layout/lazyViews';
import { LazyView } from './components/layout/LazyView';
import { useWorkbenchKeys } from './components/layout/useWorkbenchKeys';

export function App() {
  const view = useAppStore((s) => s.view);
  const language = useAppStore((s) => s.language);
  const hasSession = useAppStore((s) => s.conversation !== null);
  const rightOpen = useAppStore((s) => s.rightOpen);
  const theme = useAppStore((s) => s.theme);
  const loadSettings = useAppStore((s) => s.loadSettings);
  const loadProviders = useAppStore((s) => s.loadProviders);
  const sidebarOpen = useAppStore((s) => s.sidebarOpen);
  const [help, setHelp] = useState(false);
  const openHelp = useCallback(() => setHelp(true), []);
  useWorkbenchKeys(openHelp);

  useEffect(() => applyTheme(theme), [theme]);
  // The Settings defaults decide the composer's provider and model.
  // Which providers are ready decides the first-run setup, the composer's picker and what sending does.
  useEffect(() => {
    void loadSettings();
    void loadProviders();
  }, [loadSettings, loadProviders]);

  // `lang` picks the right CJK glyphs (Noto Sans CJK SC) and tells screen readers.
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  const inSession = view === 'session' && hasSession;
  return (
    <div className="app">
      <Header />
      <div className="app-body">
        {sidebarOpen ? <Sidebar /> : null}
        <main className={`main${inSession ? ' main-session' : ''}`}>
          <Notices />
          {/* Keyed by view: a view that failed to load does not hide the others (Reload fetches the app again). */}
          <LazyView key={inSession ? 'session' : view}>
            {view === 'system' ? (
              <SystemPanel />
            ) : view === 'settings' ? (
              <SettingsPanel />
            ) : view === 'skills' ? (
              <SkillsPage />
            ) : inSession ? (
              <Conversation />
            ) : (
              <Welcome />
            )}
          </LazyView>
        </main>
        {inSession && rightOpen ? (
          <LazyView>
            <RightPanel />
          </LazyView>
        ) : null}
      </div>
      {help ? (
        <LazyView>
          <ShortcutsHelp onClose={() => setHelp(false)} />
        </LazyView>
      ) : null}
      <SetupDialog />
    </div>
  );
}
