import { useEffect } from 'react';
import { useT } from '../i18n/useT';
import { useAppStore } from '../store/context';
import { ProvidersTable } from './ProvidersTable';
import { SafetyCard } from './SafetyCard';
import { AppCard, PythonCard, RCard, SandboxCard } from './SystemCards';
import { PageHead } from './ui';
import { Icon } from './icons';
import { envelopeErrorText } from '../errors/envelopeText';

/** The doctor report (`doctor.get`): interpreters, sandbox, data directory, providers. */
export function SystemPanel() {
  const t = useT();
  const language = useAppStore((s) => s.language);
  const { status, report, error } = useAppStore((s) => s.doctor);
  const loadDoctor = useAppStore((s) => s.loadDoctor);
  const loading = status === 'loading';
  // Refresh (header) and Retry (after an error) both run the checks again, fresh.
  const checkAgain = { type: 'button', className: 'btn', onClick: () => void loadDoctor(true), disabled: loading } as const;

  useEffect(() => {
    if (status === 'idle') void loadDoctor();
  }, [status, loadDoctor]);

  const checkedAt = report
    ? new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'medium' }).format(
        new Date(report.generatedAt),
      )
    : null;

  return (
    <section className="system" aria-labelledby="system-title" aria-busy={loading}>
      <PageHead
        id="system-title"
        title={t('system.title')}
        subtitle={
          <>
            {t('system.subtitle')}
            {checkedAt ? (
              <span data-testid="checked-at" data-generated-at={report?.generatedAt}>
                {' '}
                · {t('system.checkedAt', { time: checkedAt })}
              </span>
            ) : null}
          </>
        }
        actions={
          <button {...checkAgain}>
            {loading ? <span className="spinner" aria-hidden="true" /> : <Icon name="refresh" size={14} />}
            {loading ? t('system.refreshing') : t('system.refresh')}
          </button>
        }
      />

      {error ? (
        <div className="alert" role="alert" data-testid="doctor-error">
          <div>
            <strong>{t('system.errorTitle')}</strong>
            <p>
              <span className="muted">{t('system.errorCode')}: </span>
              <code data-testid="doctor-error-code">{error.code}</code>
            </p>
            <p data-testid="doctor-error-message">{envelopeErrorText(t, error)}</p>
          </div>
          <button {...checkAgain}>
            {t('system.retry')}
          </button>
        </div>
      ) : null}

      {!report && loading ? (
        <div className="loading" role="status">
          <span className="spinner" aria-hidden="true" />
          {t('system.loading')}
        </div>
      ) : null}

      {report ? (
        <div className="cards" data-testid="doctor-report">
          <AppCard report={report} />
          <PythonCard python={report.python} />
          <RCard report={report} />
          <SandboxCard report={report} />
          <SafetyCard report={report} />
          <ProvidersTable providers={report.providers} />
        </div>
      ) : null}
    </section>
  );
}
