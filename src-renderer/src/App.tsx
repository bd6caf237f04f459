import { useCallback, useEffect, useState } from 'react';
import { Conversation } from './components/Conversation';
import { Header } from './components/Header';
import { Notices } from './components/Notices';
import { RightPanel } from './components/panel/RightPanel';
import { Sidebar } from './components/Sidebar';
import { SettingsPanel } from './components/settings/SettingsPanel';
import { SkillsPage } from './components/skills/SkillsPage';
import { SystemPanel } from './components/SystemPanel';
import { SetupDialog } from './components/setup/SetupDialog';
import { Welcome } from './components/Welcome';
import { useAppStore } from './store/context';
import { applyTheme } from './theme';
import { ShortcutsHelp } from './components/layout/ShortcutsHelp';
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
        </main>
        {inSession && rightOpen ? <RightPanel /> : null}
      </div>
      {help ? <ShortcutsHelp onClose={() => setHelp(false)} /> : null}
      <SetupDialog />
    </div>
  );
}
