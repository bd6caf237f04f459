import type { ProviderStatus } from '../../../../src-preload/contract';
import type { MessageKey } from '../../i18n/messages';
import { useT } from '../../i18n/useT';
import { providerName } from '../providerName';

export const READINESS_TONE = { ready: 'ok', no_key: 'neutral', not_running: 'warn' } as const;

/** The providers as a radio list, Ark first (the catalogue's order), each with its readiness. */
export function ProviderChoice({
  providers,
  selected,
  onSelect,
  name,
}: {
  providers: readonly ProviderStatus[];
  selected: string;
  onSelect(id: string): void;
  name: string;
}) {
  const t = useT();
  return (
    <fieldset className="setup-providers">
      <legend>{t('setup.provider')}</legend>
      {providers.map((p, i) => (
        <label key={p.id} className={`setup-provider${p.id === selected ? ' selected' : ''}`} data-testid={`setup-provider-${p.id}`}>
          <input type="radio" name={name} value={p.id} checked={p.id === selected} onChange={() => onSelect(p.id)} />
          <span className="setup-provider-name">{providerName(p, t)}</span>
          <span className="setup-provider-pills">
            {i === 0 ? <span className="pill pill-neutral">{t('setup.recommended')}</span> : null}
            <span className={`pill pill-${READINESS_TONE[p.readiness.state]}`} data-testid="readiness">
              {t(`readiness.${p.readiness.state}` as MessageKey)}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
