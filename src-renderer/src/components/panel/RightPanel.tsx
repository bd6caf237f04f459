import { useEffect, type KeyboardEvent } from 'react';
import type { MessageKey } from '../../i18n/messages';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import type { RightTab } from '../../store/types';
import { IconButton } from '../ui';
import { ArtifactsTab } from './ArtifactsTab';
import { EvidenceTab } from './EvidenceTab';
import { NotebookTab } from './NotebookTab';
import { PlanTab } from '../plan/PlanTab';
import { MemoryTab } from '../memory/MemoryTab';
import { JobsTab } from '../compute/JobsTab';
import { Icon } from '../icons';

const TABS: readonly [RightTab, MessageKey][] = [
  ['notebook', 'panel.notebook'],
  ['evidence', 'panel.evidence'],
  ['artifacts', 'panel.artifacts'],
  ['plan', 'panel.plan'],
  ['memory', 'panel.memory'],
  ['jobs', 'panel.jobs'],
];

/** The session's side panel: Notebook, Evidence, Artifacts, the agent's Plan, its Memory and compute Jobs. */
export function RightPanel() {
  const t = useT();
  const tab = useAppStore((s) => s.rightTab);
  const setTab = useAppStore((s) => s.setRightTab);
  const toggle = useAppStore((s) => s.toggleRight);
  // A tab chosen while scrolled out of a narrow tab list (a click on its visible part, Alt+N) comes into view.
  useEffect(() => {
    document.getElementById(`tab-${tab}`)?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [tab]);
  // Tabs the ARIA way: one tab stop (the selected tab); arrows, Home and End move and select.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = TABS.findIndex(([id]) => id === tab);
    const next =
      e.key === 'ArrowRight'
        ? (at + 1) % TABS.length
        : e.key === 'ArrowLeft'
          ? (at - 1 + TABS.length) % TABS.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? TABS.length - 1
              : -1;
    if (next < 0 || !(e.target as HTMLElement).matches('[role="tab"]')) return;
    e.preventDefault();
    const id = TABS[next]![0];
    setTab(id);
    document.getElementById(`tab-${id}`)?.focus();
  };
  return (
    <aside
      className="right-panel"
      aria-label={t(TABS.find(([id]) => id === tab)![1])}
      data-testid="right-panel"
    >
      <div className="panel-tabs">
        <div
          className="panel-tablist"
          role="tablist"
          aria-orientation="horizontal"
          onKeyDown={onKeyDown}
        >
          {TABS.map(([id, label], i) => (
            <button
              key={id}
              type="button"
              role="tab"
              id={`tab-${id}`}
              aria-selected={tab === id}
              aria-controls="panel-body"
              aria-keyshortcuts={`Alt+${i + 1}`}
              tabIndex={tab === id ? 0 : -1}
              className={tab === id ? 'active' : undefined}
              onClick={() => setTab(id)}
            >
              {t(label)}
            </button>
          ))}
        </div>
        <span className="grow" />
        <IconButton
          label={t('panel.close')}
          aria-keyshortcuts="Control+Shift+B"
          onClick={() => toggle(false)}
        >
          <Icon name="chevronRight" />
        </IconButton>
      </div>
      <div
        className="panel-body"
        id="panel-body"
        role="tabpanel"
        aria-labelledby={`tab-${tab}`}
        tabIndex={0}
      >
        {tab === 'notebook' ? <NotebookTab /> : null}
        {tab === 'evidence' ? <EvidenceTab /> : null}
        {tab === 'artifacts' ? <ArtifactsTab /> : null}
        {tab === 'plan' ? <PlanTab /> : null}
        {tab === 'memory' ? <MemoryTab /> : null}
        {tab === 'jobs' ? <JobsTab /> : null}
      </div>
    </aside>
  );
}
