import { useEffect, useRef } from 'react';
import type { MessageKey } from '../../i18n/messages';
import { useT } from '../../i18n/useT';
import { SHORTCUTS } from './shortcuts';

/** The list of keyboard shortcuts, in a modal <dialog> (Esc closes it, focus returns where it was). */
export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal?.();
  }, []);
  return (
    <dialog ref={ref} className="shortcuts-help" aria-labelledby="shortcuts-title" onClose={onClose} data-testid="shortcuts-help">
      <h2 id="shortcuts-title">{t('shortcuts.title')}</h2>
      <dl>
        {SHORTCUTS.map((s) => (
          <div key={s.action} className="shortcut-row">
            <dt>{t(`shortcuts.${s.action}` as MessageKey)}</dt>
            <dd>
              <kbd>{isMac ? s.keys.replaceAll('Ctrl', '⌘') : s.keys}</kbd>
            </dd>
          </div>
        ))}
      </dl>
      <form method="dialog">
        <button type="submit" className="btn" autoFocus>
          {t('shortcuts.close')}
        </button>
      </form>
    </dialog>
  );
}
