import type { ProviderReadiness, ProviderStatus } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { providerName } from '../providerName';

/**
 * What to know before filling the form: for Ark what the ¥9.9 plan covers, where to get
 * a key and the documentation; for a local endpoint that is not running, how to start it.
 */
/** Why a local endpoint did not answer, in the window's language when main named the case. */
function readinessDetail(r: ProviderReadiness, t: ReturnType<typeof useT>): string {
  if (r.detailCode === 'refused') return t('readiness.detail.refused');
  if (r.detailCode === 'timeout') return t('readiness.detail.timeout', { seconds: (r.timeoutS ?? 0).toFixed(1) });
  return r.detail ?? '';
}

export function ProviderHelp({ provider }: { provider: ProviderStatus }) {
  const t = useT();
  const notRunning = provider.readiness.state === 'not_running';
  return (
    <div className="setup-help" data-testid="setup-help">
      {provider.id === 'ark' ? <p data-testid="ark-plan">{t('setup.ark.plan')}</p> : null}
      {notRunning ? (
        <p className="tone-warn" data-testid="not-running">
          {t('setup.notRunning', { provider: providerName(provider, t), baseUrl: provider.baseUrl, detail: readinessDetail(provider.readiness, t) })}{' '}
          {provider.id === 'ollama'
            ? t('setup.ollamaHowTo', { model: provider.model })
            : t('setup.localHowTo', { baseUrl: provider.baseUrl })}
        </p>
      ) : null}
      <p className="setup-links">
        {provider.keyUrl ? (
          <a href={provider.keyUrl} target="_blank" rel="noreferrer noopener" data-testid="get-key">
            {t('setup.getKey')} ↗
          </a>
        ) : null}
        <a href={provider.docsUrl} target="_blank" rel="noreferrer noopener">
          {t('setup.docs')} ↗
        </a>
      </p>
    </div>
  );
}
