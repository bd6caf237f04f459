import { useAppStore } from '../../store/context';
import { useT } from '../../i18n/useT';

/** The composer's switch: may the agent split the next message among child agents (issue 20)? */
export function DelegationSwitch() {
  const t = useT();
  const allowed = useAppStore((s) => s.delegationAllowed);
  const setAllowed = useAppStore((s) => s.setDelegationAllowed);
  return (
    <label className="picker delegation-switch" title={t('delegation.allowHint')}>
      <input
        type="checkbox"
        checked={allowed}
        onChange={(e) => setAllowed(e.target.checked)}
        data-testid="delegation-switch"
      />
      <span className="small">{t('delegation.allow')}</span>
    </label>
  );
}
