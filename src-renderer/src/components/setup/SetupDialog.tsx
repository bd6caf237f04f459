import { useEffect, useRef } from 'react';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { ProviderSetupForm } from './ProviderSetupForm';
import '../../styles/setup.css';

/**
 * The setup as a modal dialog, opened where a message could not go (the composer, a
 * suggested question), from a failure's "Open provider setup" and from Settings. A native
 * <dialog>: focus stays inside, Esc closes it.
 */
export function SetupDialog() {
  const t = useT();
  const setup = useAppStore((s) => s.setup);
  const view = useAppStore((s) => s.providers.data);
  const close = useAppStore((s) => s.closeSetup);
  const loadProviders = useAppStore((s) => s.loadProviders);
  const ref = useRef<HTMLDialogElement>(null);
  const open = setup.open && view !== null;

  useEffect(() => {
    if (setup.open && !view) void loadProviders();
  }, [setup.open, view, loadProviders]);
  useEffect(() => {
    const el = ref.current;
    if (!el || !open || el.open) return;
    // jsdom has no showModal; the attribute opens it there (without the modal focus trap).
    if (typeof el.showModal === 'function') el.showModal();
    else el.setAttribute('open', '');
  }, [open]);

  if (!open) return null;
  return (
    <dialog ref={ref} className="setup-dialog" aria-labelledby="setup-dialog-title" onClose={close} data-testid="setup-dialog">
      <header className="setup-dialog-head">
        <h2 id="setup-dialog-title">{t('setup.dialogTitle')}</h2>
        <button type="button" className="icon-btn" aria-label={t('setup.close')} title={t('setup.close')} onClick={close}>
          ×
        </button>
      </header>
      {setup.pending ? <p className="muted small" data-testid="setup-pending">{t('setup.pendingNote')}</p> : null}
      <ProviderSetupForm view={view} initialProviderId={setup.providerId} sendsPending={setup.pending !== null} />
    </dialog>
  );
}
