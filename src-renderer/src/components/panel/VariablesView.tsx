import { useEffect, useRef, useState } from 'react';
import type { KernelLanguage, KernelSlotStatus } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { envelopeErrorText } from '../../errors/envelopeText';
import { useAppStore } from '../../store/context';
import { agentWorking } from '../../store/conversationReducer';
import type { AppState } from '../../store/types';
import { cellActivity } from './KernelPanel';

const LANGUAGES: readonly KernelLanguage[] = ['python', 'r'];

/**
 * The names in the session's running kernel (issue 25): type, shape and a short plain-text
 * preview, listed by a small introspection cell on request (a kernel that is not running
 * is not started for it). Text only: nothing the kernel returns is rendered as HTML.
 *
 * The list follows the kernel as a variable explorer should: it is read again when the view
 * opens and whenever the names may have changed (a cell of the agent or the user ended, the
 * kernel restarted or stopped), once nobody holds the kernels. It is never read while the
 * agent's turn holds them: the listing would wait behind the whole turn, so it comes when
 * the turn ends. Refresh asks at once. It shows Python's names, or R's when only the R kernel
 * runs (a session whose agent works in R), until the user picks a language for the session.
 */
export function VariablesView({ sessionId }: { sessionId: string }) {
  const t = useT();
  const load = useAppStore((s) => s.loadVariables);
  const variables = useAppStore((s) => s.notebook.variables);
  const mine = useAppStore((s) => s.notebook.sessionId === sessionId);
  const rows = mine ? (variables.data?.variables ?? null) : null;
  const [chosen, setChosen] = useState<{ sessionId: string; language: KernelLanguage } | null>(null);
  const onlyR = useAppStore((s) => onlyRRunning(s, sessionId));
  const language: KernelLanguage = chosen?.sessionId === sessionId ? chosen.language : onlyR ? 'r' : 'python';
  useFollowKernel(sessionId, language);
  return (
    <section className="variables-view" aria-label={t('notebook.variables.title')} data-testid="variables-view" data-status={mine ? variables.status : 'idle'}>
      <div className="user-notebook-bar">
        <strong className="small">{t('notebook.variables.title')}</strong>
        <span className="grow" />
        <select aria-label={t('codeRunner.language')} data-testid="variables-language" value={language} onChange={(e) => setChosen({ sessionId, language: e.target.value as KernelLanguage })}>
          {LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {t(`kernel.language.${l}`)}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="btn btn-ghost"
          data-testid="variables-refresh"
          disabled={variables.status === 'loading'}
          onClick={() => void load(sessionId, language)}
        >
          {t('notebook.variables.refresh')}
        </button>
      </div>
      {mine && variables.error ? (
        <p className="small error-text" role="alert">
          {envelopeErrorText(t, variables.error)}
        </p>
      ) : null}
      {rows && rows.length === 0 ? (
        <p className="small muted" data-testid="variables-empty">
          {variables.data?.generation === null ? t('notebook.variables.notRunning', { language: t(`kernel.language.${variables.data.language}`) }) : t('notebook.variables.none')}
        </p>
      ) : null}
      {rows && rows.length > 0 ? (
        <table className="variables-table small" data-testid="variables-table">
          <thead>
            <tr>
              <th>{t('notebook.variables.name')}</th>
              <th>{t('notebook.variables.type')}</th>
              <th>{t('notebook.variables.shape')}</th>
              <th>{t('notebook.variables.preview')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((v) => (
              <tr key={v.name} data-testid="variable-row" data-name={v.name}>
                <td className="mono variable-clip" title={v.name}>
                  {v.name}
                </td>
                <td className="mono variable-clip" data-testid="variable-type" title={v.type}>
                  {v.type}
                </td>
                <td className="mono" data-testid="variable-shape">
                  {v.shape ?? ''}
                </td>
                <td className="mono variable-preview" title={v.preview}>
                  {v.preview}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

const live = (slot: KernelSlotStatus | undefined) => !!slot?.generation && slot.state !== 'none' && slot.state !== 'dead';

/** The session's R kernel runs and its Python kernel does not. */
function onlyRRunning(s: AppState, sessionId: string): boolean {
  if (s.kernels.sessionId !== sessionId || !s.kernels.data) return false;
  const slots = s.kernels.data.slots;
  return !live(slots.find((k) => k.language === 'python')) && live(slots.find((k) => k.language === 'r'));
}

/** Reads the variables again when what the kernel holds may have changed (see VariablesView). */
function useFollowKernel(sessionId: string, language: KernelLanguage): void {
  const load = useAppStore((s) => s.loadVariables);
  const agentCells = useAppStore((s) => (s.conversation?.sessionId === sessionId ? cellActivity(s.conversation) : ''));
  const userRuns = useAppStore((s) => (s.notebook.sessionId === sessionId ? s.notebook.versions.length : 0));
  const working = useAppStore((s) => (s.conversation?.sessionId === sessionId ? agentWorking(s.conversation) : false));
  // One value per selector: a selector that builds an object would answer a new one every time.
  const slotOf = (s: AppState) => (s.kernels.sessionId === sessionId ? s.kernels.data?.slots.find((k) => k.language === language) : undefined);
  const state = useAppStore((s) => (s.kernels.sessionId === sessionId && s.kernels.data ? (slotOf(s)?.state ?? 'none') : null));
  const generation = useAppStore((s) => slotOf(s)?.generation ?? null);
  const held = useAppStore((s) => s.kernels.sessionId === sessionId && s.kernels.data?.lease?.holder != null);
  const loading = useAppStore((s) => s.notebook.variables.status === 'loading');
  const seen = useRef<string | null>(null);
  useEffect(() => {
    // Unknown (not loaded yet), busy or starting: the next status says more.
    if (state === null || state === 'busy' || state === 'starting') return;
    if (working || held || loading) return;
    const key = [sessionId, language, generation ?? '-', agentCells, userRuns].join('|');
    if (seen.current === key) return;
    seen.current = key;
    void load(sessionId, language);
  }, [sessionId, language, state, generation, held, working, loading, agentCells, userRuns, load]);
}
