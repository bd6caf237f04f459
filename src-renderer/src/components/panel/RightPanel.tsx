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
  return (
    <aside className="right-panel" aria-label={t(TABS.find(([id]) => id === tab)![1])}>
      <div className="panel-tabs" role="tablist">
        {TABS.map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`tab-${id}`}
            aria-selected={tab === id}
            aria-controls="panel-body"
            className={tab === id ? 'active' : undefined}
            onClick={() => setTab(id)}
          >
            {t(label)}
          </button>
        ))}
        <span className="grow" />
        <IconButton label={t('panel.close')} onClick={() => toggle(false)}>
          <Icon name="chevronRight" />
        </IconButton>
      </div>
      <div className="panel-body" id="panel-body" role="tabpanel" aria-labelledby={`tab-${tab}`}>
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
