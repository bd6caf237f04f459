import { useT } from '../i18n/useT';
import { useAppStore } from '../store/context';
import { envelopeErrorText } from '../errors/envelopeText';
import { noticeText } from '../errors/noticeText';

/** Messages pushed by main on `app.notice`, and this window's failed calls. */
export function Notices() {
  const t = useT();
  const items = useAppStore((s) => s.notices.items);
  const dismiss = useAppStore((s) => s.dismissNotice);
  if (items.length === 0) return null;
  return (
    <div className="notices" aria-live="polite">
      {items.map((n) => (
        <div
          key={n.id}
          className={`notice notice-${n.level}`}
          role={n.level === 'error' ? 'alert' : 'status'}
        >
          <span>{n.error ? envelopeErrorText(t, n.error) : noticeText(t, n)}</span>
          <button
            type="button"
            className="icon-btn"
            aria-label={t('notice.dismiss')}
            onClick={() => dismiss(n.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
