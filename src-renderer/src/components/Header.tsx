import { useT } from '../i18n/useT';
import { LanguageSwitch } from './LanguageSwitch';
import { useAppStore } from '../store/context';
import { ExportButton } from './ExportPanel';
import { Icon } from './icons';
import { IconButton } from './ui';

export function Header() {
  const t = useT();
  const title = useAppStore((s) =>
    s.view === 'session' && s.conversation
      ? s.sessions.items.find((x) => x.id === s.conversation!.sessionId)?.title
      : undefined,
  );
  const panelClosed = useAppStore(
    (s) => s.view === 'session' && s.conversation !== null && !s.rightOpen,
  );
  const toggle = useAppStore((s) => s.toggleRight);
  const sidebarOpen = useAppStore((s) => s.sidebarOpen);
  const toggleSidebar = useAppStore((s) => s.toggleSidebar);
  return (
    <header className="app-header">
      <IconButton
        label={t(sidebarOpen ? 'layout.hideSidebar' : 'layout.showSidebar')}
        aria-expanded={sidebarOpen}
        aria-keyshortcuts="Control+B"
        onClick={() => toggleSidebar()}
        data-testid="toggle-sidebar"
      >
        <Icon name="sidebar" />
      </IconButton>
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          4S
        </span>
        <span className="brand-name">OpenAI4S</span>
        <span className="brand-tagline">{t('app.tagline')}</span>
      </div>
      {title ? (
        <h1 className="header-title" data-testid="session-title">
          {title}
        </h1>
      ) : (
        <span className="grow" />
      )}
      <div className="header-tools">
        {title ? <ExportButton /> : null}
        {panelClosed ? (
          <button type="button" className="btn btn-ghost" onClick={() => toggle(true)} aria-keyshortcuts="Control+Shift+B" data-testid="show-panel">
            <Icon name="panel" size={14} /> {t('panel.open')}
          </button>
        ) : null}
        <LanguageSwitch />
      </div>
    </header>
  );
}
