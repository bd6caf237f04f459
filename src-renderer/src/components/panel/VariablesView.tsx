import { useState } from 'react';
import type { KernelLanguage } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';

const LANGUAGES: readonly KernelLanguage[] = ['python', 'r'];

/**
 * The names in the session's running kernel (issue 25): type, shape and a short plain-text
 * preview, listed by a small introspection cell on request (a kernel that is not running
 * is not started for it). Text only: nothing the kernel returns is rendered as HTML.
 */
export function VariablesView({ sessionId }: { sessionId: string }) {
  const t = useT();
  const load = useAppStore((s) => s.loadVariables);
  const variables = useAppStore((s) => s.notebook.variables);
  const mine = useAppStore((s) => s.notebook.sessionId === sessionId);
  const rows = mine ? (variables.data?.variables ?? null) : null;
  const [language, setLanguage] = useState<KernelLanguage>(variables.language);
  return (
    <section className="variables-view" aria-label={t('notebook.variables.title')} data-testid="variables-view" data-status={mine ? variables.status : 'idle'}>
      <div className="user-notebook-bar">
        <strong className="small">{t('notebook.variables.title')}</strong>
        <span className="grow" />
        <select aria-label={t('codeRunner.language')} data-testid="variables-language" value={language} onChange={(e) => setLanguage(e.target.value as KernelLanguage)}>
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
          {variables.error}
        </p>
      ) : null}
      {rows && rows.length === 0 ? <p className="small muted">{t('notebook.variables.none')}</p> : null}
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
                <td className="mono">{v.name}</td>
                <td className="mono" data-testid="variable-type">
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
