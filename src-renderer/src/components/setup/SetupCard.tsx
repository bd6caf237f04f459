import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { noneReady } from '../../store/readiness';
import { ProviderSetupForm } from './ProviderSetupForm';
import '../../styles/setup.css';

/** The welcome screen's first-run card: shown while no provider is ready, the setup form inline. */
export function SetupCard() {
  const t = useT();
  const view = useAppStore((s) => s.providers.data);
  if (!view || !noneReady(view)) return null;
  return (
    <section className="setup-card" aria-labelledby="setup-card-title" data-testid="setup-card">
      <h2 id="setup-card-title">{t('setup.title')}</h2>
      <p className="muted">{t('setup.lead')}</p>
      <ProviderSetupForm view={view} initialProviderId={null} sendsPending={false} />
    </section>
  );
}
