import { useT } from '../../i18n/useT';

/** The raw provider or engine message, collapsed: for a bug report or a search, never the headline. */
export function ProblemDetails({ code, status, message }: { code?: string | null; status?: number | null; message: string }) {
  const t = useT();
  if (!message && !code) return null;
  return (
    <details className="problem-details" data-testid="problem-details">
      <summary>{t('failure.details')}</summary>
      {code || (status && status >= 400) ? (
        <p className="muted small">
          {t('failure.code')}: <code>{[code, status && status >= 400 ? `HTTP ${status}` : null].filter(Boolean).join(' · ')}</code>
        </p>
      ) : null}
      {message ? <pre className="problem-raw">{message}</pre> : null}
    </details>
  );
}
