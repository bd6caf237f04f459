import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { Section } from './Section';
import { envelopeErrorText } from '../../errors/envelopeText';

/** The approval rules decided "always", each revocable. */
export function RulesSection() {
  const t = useT();
  const rules = useAppStore((s) => s.rules);
  const revoke = useAppStore((s) => s.revokeRule);
  return (
    <Section title={t('settings.rules.title')} note={t('settings.rules.note')} testId="settings-rules">
      {rules.status === 'error' ? <p className="error-text small">{envelopeErrorText(t, rules.error)}</p> : null}
      {rules.data.length === 0 && rules.status === 'ready' ? (
        <p className="muted small">{t('settings.rules.empty')}</p>
      ) : null}
      <ul className="rule-list">
        {rules.data.map((r) => (
          <li key={r.id}>
            <span
              className={`pill pill-${r.action === 'allow' ? 'ok' : r.action === 'deny' ? 'bad' : 'warn'}`}
            >
              {t(`settings.mcp.policy.${r.action}`)}
            </span>
            <span className="mono">{r.tool}</span>
            <span className="muted mono small">{r.target}</span>
            <span className="grow" />
            <button type="button" className="btn" onClick={() => void revoke(r.id)}>
              {t('settings.rules.revoke')}
            </button>
          </li>
        ))}
      </ul>
    </Section>
  );
}
