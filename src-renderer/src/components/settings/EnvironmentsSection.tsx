import { useEffect } from 'react';
import type { EnvironmentView } from '../../../../src-preload/contract/environments';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { Section } from './Section';
import { envelopeErrorText } from '../../errors/envelopeText';

function EnvironmentRow({ env }: { env: EnvironmentView }) {
  const t = useT();
  return (
    <li data-testid="environment" data-id={env.id} data-ready={env.ready}>
      <strong>{env.id}</strong>{' '}
      <span className="small muted">
        {t(`kernel.language.${env.language}`)}
        {env.version ? ` ${env.version}` : ''}
        {env.interpreter ? ` · ${env.interpreter}` : ''}
      </span>{' '}
      <span className={`badge ${env.ready ? 'pill-ok' : 'pill-bad'}`}>
        {env.ready ? t('settings.environments.ready') : t('settings.environments.notReady')}
      </span>
      {env.missing.length ? (
        <p className="small" data-testid="environment-missing">
          {t('settings.environments.missing', { packages: env.missing.join(', ') })}
        </p>
      ) : null}
      {env.reason ? <p className="small error-text">{env.reason}</p> : null}
      {env.installCommand ? (
        <p className="small">
          {t('settings.environments.install')} <code data-testid="environment-install">{env.installCommand}</code>
        </p>
      ) : null}
    </li>
  );
}

/** Every environment the kernels can run in, what each lacks of its declaration and the command that installs it here. */
export function EnvironmentsSection() {
  const t = useT();
  const environments = useAppStore((s) => s.environments);
  const load = useAppStore((s) => s.loadEnvironments);
  useEffect(() => {
    // Settings shows the defaults: no session's choice.
    void load(null);
  }, [load]);
  const list = environments.sessionId === null ? (environments.data?.environments ?? []) : [];
  return (
    <Section title={t('settings.environments.title')} note={t('settings.environments.note')} testId="environments-section">
      {environments.status === 'error' ? (
        <div className="alert" role="alert">
          {envelopeErrorText(t, environments.error)}
        </div>
      ) : null}
      {environments.status === 'ready' && list.length === 0 ? (
        <p className="small muted">{t('settings.environments.none')}</p>
      ) : null}
      <ul className="environments" data-testid="environments">
        {list.map((env) => (
          <EnvironmentRow key={env.id} env={env} />
        ))}
      </ul>
      <button type="button" className="btn" onClick={() => void load(null, true)} disabled={environments.status === 'loading'}>
        {t('settings.environments.refresh')}
      </button>
    </Section>
  );
}
