import { useEffect } from 'react';
import { Header } from './components/Header';
import { Notices } from './components/Notices';
import { Sidebar } from './components/Sidebar';
import { SystemPanel } from './components/SystemPanel';
import { Welcome } from './components/Welcome';
import { useAppStore } from './store/context';

export function App() {
  const view = useAppStore((s) => s.view);
  const language = useAppStore((s) => s.language);

  // `lang` picks the right CJK glyphs (Noto Sans CJK SC) and tells screen readers.
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  return (
    <div className="app">
      <Header />
      <div className="app-body">
        <Sidebar />
        <main className="main">
          <Notices />
          {view === 'system' ? <SystemPanel /> : <Welcome />}
        </main>
      </div>
    </div>
  );
}
