import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { CellCard, type CellData } from '../parts/CellCard';
import { isDataPart } from '../parts/dataPart';
import { EnvironmentPicker } from './EnvironmentPicker';
import { KernelPanel } from './KernelPanel';
import { UserNotebook } from './UserNotebook';
import { VariablesView } from './VariablesView';
import { WorkspaceFiles } from './WorkspaceFiles';

/**
 * The kernels, the user's own cells (editable, run in the same kernels), the variables
 * view and the workspace's files, then every cell the agent ran in order, read-only, with a marker where the kernel
 * generation changes.
 */
export function NotebookTab() {
  const t = useT();
  const conv = useAppStore((s) => s.conversation);
  if (!conv) return null;
  const cells: { key: string; cell: CellData }[] = [];
  for (const m of conv.fold.messages) {
    for (const p of m.parts) {
      if (isDataPart(p, 'cell'))
        cells.push({ key: `${m.id}:${p.id ?? cells.length}`, cell: p.data });
    }
  }
  const kernels = (
    <>
      <KernelPanel sessionId={conv.sessionId}>
        <EnvironmentPicker sessionId={conv.sessionId} />
      </KernelPanel>
      <UserNotebook sessionId={conv.sessionId} />
      <VariablesView sessionId={conv.sessionId} />
      <WorkspaceFiles sessionId={conv.sessionId} />
    </>
  );
  if (cells.length === 0)
    return (
      <>
        {kernels}
        <p className="panel-empty muted">{t('panel.notebook.empty')}</p>
      </>
    );
  let generation: string | undefined;
  return (
    <>
      {kernels}
      <ol className="notebook" data-testid="notebook">
        {cells.map(({ key, cell }) => {
          const marker = cell.generation && cell.generation !== generation ? cell.generation : null;
          if (cell.generation) generation = cell.generation;
          return (
            <li key={key}>
              {marker ? (
                <div className="generation-marker" data-testid="generation-marker" title={marker}>
                  <span>{t('panel.generation', { id: marker.slice(0, 8) })}</span>
                </div>
              ) : null}
              <CellCard cell={cell} sessionId={conv.sessionId} compact />
            </li>
          );
        })}
      </ol>
    </>
  );
}
