import { useT } from '../i18n/useT';
import { useAppStore } from '../store/context';
import type { View } from '../store/slices';

/** Sessions list (empty until the session ledger exists) and the app's navigation. */
export function Sidebar() {
  const t = useT();
  const view = useAppStore((s) => s.view);
  const setView = useAppStore((s) => s.setView);
  const navItem = (target: View, label: string, icon: string) => (
    <button
      type="button"
      className={`nav-item${view === target ? ' active' : ''}`}
      aria-current={view === target ? 'page' : undefined}
      onClick={() => setView(target)}
    >
      <span className="nav-icon" aria-hidden="true">
        {icon}
      </span>
      {label}
    </button>
  );
  return (
    <aside className="sidebar">
      <button type="button" className="btn btn-primary btn-block" disabled title={t('sidebar.newSession.unavailable')}>
        <span aria-hidden="true">＋</span> {t('sidebar.newSession')}
      </button>
      <nav className="sessions" aria-label={t('sidebar.sessions')}>
        <h2 className="section-label">{t('sidebar.sessions')}</h2>
        <div className="empty-state">
          <p className="empty-title">{t('sidebar.sessions.emptyTitle')}</p>
          <p className="muted">{t('sidebar.sessions.emptyBody')}</p>
        </div>
      </nav>
      <nav className="sidebar-footer" aria-label="OpenAI4S">
        {navItem('home', t('nav.home'), '◇')}
        {navItem('system', t('nav.system'), '⚙')}
      </nav>
    </aside>
  );
}
