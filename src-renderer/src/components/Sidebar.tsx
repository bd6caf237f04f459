import { useEffect, useState } from 'react';
import type { SessionSummary } from '../../../src-preload/contract';
import { useT } from '../i18n/useT';
import { useAppStore } from '../store/context';
import { isReplayTitle } from '../store/replay';
import { visibleSessions } from '../store/sessionsReducer';
import { DemoButton } from './DemoButton';
import { IconButton } from './ui';
import type { View } from '../store/types';
import { Icon, type IconName } from './icons';

function SessionRow({ session, active }: { session: SessionSummary; active: boolean }) {
  const t = useT();
  const open = useAppStore((s) => s.openSession);
  const rename = useAppStore((s) => s.renameSession);
  const remove = useAppStore((s) => s.deleteSession);
  const activity = useAppStore((s) => s.sessions.activity[session.id]);
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(session.title);
  const replay = isReplayTitle(session.title);

  if (editing) {
    return (
      <li className="session-row editing">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const next = title.trim();
            setEditing(false);
            if (next && next !== session.title) void rename(session.id, next);
          }}
        >
          <input
            autoFocus
            value={title}
            aria-label={t('sidebar.title')}
            onChange={(e) => setTitle(e.target.value)}
            onKeyDown={(e) => e.key === 'Escape' && setEditing(false)}
            onBlur={(e) => e.currentTarget.form?.requestSubmit()}
            data-testid="rename-input"
          />
        </form>
      </li>
    );
  }
  return (
    <li
      className={`session-row${active ? ' active' : ''}`}
      data-testid="session-row"
      data-session-id={session.id}
    >
      <button
        type="button"
        className="session-open"
        aria-current={active ? 'page' : undefined}
        onClick={() => void open(session.id)}
      >
        <span className="session-title">{session.title}</span>
        {activity?.running || activity?.queued || replay ? (
          <span className="session-badges">
            {replay ? (
              <span className="badge badge-replay" data-testid="badge-replay">
                {t('replay.badge')}
              </span>
            ) : null}
            {activity?.running ? (
              <span className="badge pill-neutral" data-testid="badge-running">
                <span className="pulse" aria-hidden="true" />
                {t('sidebar.running')}
              </span>
            ) : null}
            {activity?.queued ? (
              <span className="badge pill-warn" data-testid="badge-queued">
                {t('sidebar.queued', { count: activity.queued })}
              </span>
            ) : null}
          </span>
        ) : null}
      </button>
      <span
        className="session-actions"
        role="group"
        aria-label={t('sidebar.actions', { title: session.title })}
      >
        <IconButton
          label={t('sidebar.rename')}
          onClick={() => {
            setTitle(session.title);
            setEditing(true);
          }}
        >
          <Icon name="pencil" size={14} />
        </IconButton>
        <IconButton
          label={t('sidebar.delete')}
          onClick={() => {
            if (window.confirm(t('sidebar.deleteConfirm', { title: session.title })))
              void remove(session.id);
          }}
        >
          <Icon name="trash" size={14} />
        </IconButton>
      </span>
    </li>
  );
}

/** Sessions (new, search, rename, delete, running/queued badges) and the app's navigation. */
export function Sidebar() {
  const t = useT();
  const view = useAppStore((s) => s.view);
  const setView = useAppStore((s) => s.setView);
  const sessions = useAppStore((s) => s.sessions);
  const load = useAppStore((s) => s.loadSessions);
  const create = useAppStore((s) => s.createSession);
  const setQuery = useAppStore((s) => s.setSessionQuery);

  useEffect(() => {
    if (sessions.status === 'idle') void load();
  }, [sessions.status, load]);

  const list = visibleSessions(sessions);
  const navItem = (target: View, label: string, icon: IconName) => (
    <button
      type="button"
      className={`nav-item${view === target ? ' active' : ''}`}
      aria-current={view === target ? 'page' : undefined}
      onClick={() => setView(target)}
    >
      <span className="nav-icon" aria-hidden="true">
        <Icon name={icon} />
      </span>
      {label}
    </button>
  );
  return (
    <aside className="sidebar">
      <button
        type="button"
        className="btn btn-primary btn-block"
        onClick={() => void create()}
        aria-keyshortcuts="Control+Shift+O"
        data-testid="new-session"
      >
        <Icon name="plus" size={14} /> {t('sidebar.newSession')}
      </button>
      <DemoButton variant="sidebar" />
      <input
        type="search"
        className="search"
        placeholder={t('sidebar.search')}
        aria-label={t('sidebar.search')}
        value={sessions.query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <nav className="sessions" aria-label={t('sidebar.sessions')}>
        <h2 className="section-label">{t('sidebar.sessions')}</h2>
        {sessions.status === 'ready' && sessions.items.length === 0 ? (
          <div className="empty-state">
            <p className="empty-title">{t('sidebar.sessions.emptyTitle')}</p>
            <p className="muted">{t('sidebar.sessions.emptyBody')}</p>
          </div>
        ) : null}
        {sessions.items.length > 0 && list.length === 0 ? (
          <p className="muted small pad">{t('sidebar.noMatch', { query: sessions.query })}</p>
        ) : null}
        <ul className="session-list">
          {list.map((s) => (
            <SessionRow
              key={s.id}
              session={s}
              active={view === 'session' && sessions.activeId === s.id}
            />
          ))}
        </ul>
      </nav>
      <nav className="sidebar-footer" aria-label="OpenAI4S">
        {navItem('home', t('nav.home'), 'home')}
        {navItem('skills', t('nav.skills'), 'sparkle')}
        {navItem('settings', t('nav.settings'), 'gear')}
        {navItem('system', t('nav.system'), 'pulse')}
      </nav>
    </aside>
  );
}
