import { useEffect } from 'react';
import type { UserCellRecord } from '../../../../src-preload/contract';
import { cellDataOfResult } from '../../../../src-preload/contract/cellView';
import { useT } from '../../i18n/useT';
import { envelopeErrorText } from '../../errors/envelopeText';
import { useAppStore } from '../../store/context';
import type { NotebookEntry } from '../../store/notebookTypes';
import { CellCard } from '../parts/CellCard';
import '../../styles/notebook.css';

const NO_ENTRIES: NotebookEntry[] = [];
const NO_VERSIONS: UserCellRecord[] = [];

/** `waiting`: another holder (the agent's run, an environment switch) has the kernel; Interrupt would stop its cell, not this one. */
function UserCell({ sessionId, entry, versions, waiting }: { sessionId: string; entry: NotebookEntry; versions: UserCellRecord[]; waiting: boolean }) {
  const t = useT();
  const edit = useAppStore((s) => s.editNotebookCell);
  const run = useAppStore((s) => s.runNotebookCell);
  const interrupt = useAppStore((s) => s.runKernelAction);
  const runFrom = useAppStore((s) => s.runAllNotebookCells);
  const runningAll = useAppStore((s) => s.notebook.runningAll);
  const mine = versions.filter((v) => v.cellKey === entry.cellKey);
  const latest = mine.at(-1);
  const status = entry.running ? 'running' : (entry.last?.status ?? 'new');
  return (
    <li className="user-cell" data-testid="user-cell" data-language={entry.language} data-status={status} data-version={latest?.version ?? 0}>
      <div className="user-cell-bar">
        <span className="cell-lang">{t(`kernel.language.${entry.language}`)}</span>
        <span className="small muted" data-testid="user-cell-version">
          {latest ? t('notebook.user.version', { version: latest.version }) : t('notebook.user.new')}
        </span>
        <span className="grow" />
        {entry.running ? (
          <span className="small muted" role="status" data-testid="user-cell-running">
            <span className="spinner spinner-sm" aria-hidden="true" /> {t('codeRunner.running')}
          </span>
        ) : null}
        {entry.running && !waiting ? (
          <button type="button" className="btn btn-ghost" data-testid="user-cell-interrupt" onClick={() => void interrupt(sessionId, entry.language, 'interrupt')}>
            {t('kernel.interrupt')}
          </button>
        ) : null}
        <button
          type="button"
          className="btn btn-ghost"
          data-testid="user-cell-run-from"
          disabled={runningAll || entry.running}
          title={t('notebook.user.runFromHint')}
          onClick={() => void runFrom(sessionId, entry.key)}
        >
          {t('notebook.user.runFrom')}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          data-testid="user-cell-run"
          disabled={entry.running || !entry.draft.trim()}
          title={t('codeRunner.runHint')}
          onClick={() => void run(sessionId, entry.key)}
        >
          {t('codeRunner.run')}
        </button>
      </div>
      <textarea
        className="user-cell-input mono"
        data-testid="user-cell-input"
        aria-label={t('notebook.user.code')}
        placeholder={t('codeRunner.placeholder')}
        spellCheck={false}
        rows={Math.min(16, Math.max(3, entry.draft.split('\n').length + 1))}
        value={entry.draft}
        readOnly={entry.running}
        onChange={(e) => edit(entry.key, e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void run(sessionId, entry.key);
          }
        }}
      />
      {entry.error ? (
        <p className="small error-text" role="alert" data-testid="user-cell-error">
          {envelopeErrorText(t, entry.error)}
        </p>
      ) : null}
      {entry.last && latest ? (
        <div className="user-cell-result" data-testid="user-cell-result">
          <CellCard cell={cellDataOfResult(latest.code, entry.last)} sessionId={sessionId} compact />
        </div>
      ) : null}
      {mine.length > 1 ? (
        <details className="user-cell-versions" data-testid="user-cell-versions">
          <summary className="small muted">{t('notebook.user.versions', { count: mine.length })}</summary>
          <ol>
            {mine.map((v) => (
              <li key={v.id} data-testid="user-cell-old-version">
                <span className="small muted">
                  {t('notebook.user.version', { version: v.version })} · {t(`cell.status.${v.status}`)}
                </span>
                <pre className="mono small">{v.code}</pre>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </li>
  );
}

/**
 * The user's own cells in the session's kernels (issue 25): new Python or R cells, edit
 * and run again (each run is a new version; the old ones stay listed), run all, interrupt,
 * and a divider where the kernel generation changed (a restart). Cells wait their turn
 * behind the agent's run (the kernel lease), and the bar says who holds the kernel.
 */
export function UserNotebook({ sessionId }: { sessionId: string }) {
  const t = useT();
  const load = useAppStore((s) => s.loadNotebook);
  const add = useAppStore((s) => s.addNotebookCell);
  const runAll = useAppStore((s) => s.runAllNotebookCells);
  const entries = useAppStore((s) => (s.notebook.sessionId === sessionId ? s.notebook.entries : NO_ENTRIES));
  const versions = useAppStore((s) => (s.notebook.sessionId === sessionId ? s.notebook.versions : NO_VERSIONS));
  const runningAll = useAppStore((s) => s.notebook.runningAll);
  const loadError = useAppStore((s) => s.notebook.loadError);
  const holder = useAppStore((s) => (s.kernels.sessionId === sessionId ? (s.kernels.data?.lease?.holder ?? null) : null));
  const waiting = Boolean(entries.some((e) => e.running) && holder && holder.kind !== 'user');

  useEffect(() => {
    void load(sessionId);
  }, [sessionId, load]);

  let generation: string | null = null;
  return (
    <section className="user-notebook" aria-label={t('notebook.user.title')} data-testid="user-notebook">
      <div className="user-notebook-bar">
        <strong className="small">{t('notebook.user.title')}</strong>
        <span className="grow" />
        <button type="button" className="btn btn-ghost" data-testid="notebook-add-python" onClick={() => add(sessionId, 'python')}>
          {t('notebook.user.addPython')}
        </button>
        <button type="button" className="btn btn-ghost" data-testid="notebook-add-r" onClick={() => add(sessionId, 'r')}>
          {t('notebook.user.addR')}
        </button>
        <button type="button" className="btn btn-ghost" data-testid="notebook-run-all" disabled={runningAll || entries.length === 0} onClick={() => void runAll(sessionId)}>
          {t('notebook.user.runAll')}
        </button>
      </div>
      {waiting && holder ? (
        <p className="small muted" role="status" data-testid="notebook-waiting">
          {t('notebook.user.waiting', { holder: t(`notebook.holder.${holder.kind}`) })}
        </p>
      ) : null}
      {loadError ? <p className="small error-text">{envelopeErrorText(t, loadError)}</p> : null}
      {entries.length === 0 ? <p className="small muted">{t('notebook.user.hint')}</p> : null}
      <ol className="user-cells">
        {entries.map((entry) => {
          const at = entry.last?.generation ?? null;
          const marker = at && generation && at !== generation ? at : null;
          if (at) generation = at;
          return [
            marker ? (
              <li key={`gen-${entry.key}`} className="generation-marker" data-testid="user-generation-marker" title={marker}>
                <span>{t('panel.generation', { id: marker.slice(0, 8) })}</span>
              </li>
            ) : null,
            <UserCell key={entry.key} sessionId={sessionId} entry={entry} versions={versions} waiting={waiting} />,
          ];
        })}
      </ol>
    </section>
  );
}
