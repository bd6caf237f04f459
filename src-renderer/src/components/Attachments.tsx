import { useRef } from 'react';
import { useT } from '../i18n/useT';
import { useAppStore } from '../store/context';
import { envelopeErrorText } from '../errors/envelopeText';
import { formatBytes } from './parts/format';
import { IconButton } from './ui';

/** A paper clip drawn in SVG: emoji glyphs are missing from many Linux font sets. */
function ClipIcon() {
  return (
    <svg width="15" height="15" viewBox="0 0 24 24" aria-hidden="true" className="clip-icon">
      <path
        d="M21 11.5l-8.6 8.6a5.5 5.5 0 0 1-7.8-7.8l8.6-8.6a3.7 3.7 0 0 1 5.2 5.2l-8.6 8.6a1.8 1.8 0 0 1-2.6-2.6l7.9-7.9"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** The files attached to the next message, as chips (uploading, saved with their workspace path, or failed). */
export function AttachmentChips() {
  const t = useT();
  const items = useAppStore((s) =>
    s.attachments.sessionId === (s.conversation?.sessionId ?? null) ? s.attachments.items : null,
  );
  const remove = useAppStore((s) => s.removeAttachment);
  if (!items || items.length === 0) return null;
  return (
    <ul className="attach-chips" aria-label={t('composer.attachments')} data-testid="attachments">
      {items.map((a) => (
        <li
          key={a.id}
          className={`attach-chip attach-${a.status}`}
          data-testid="attachment-chip"
          data-status={a.status}
          data-path={a.path ?? undefined}
          title={a.sha256 ? `sha256 ${a.sha256}` : undefined}
        >
          {a.status === 'uploading' ? (
            <span className="spinner spinner-sm" aria-hidden="true" />
          ) : (
            <span aria-hidden="true" className="attach-state">
              {a.status === 'ready' ? <ClipIcon /> : '!'}
            </span>
          )}
          <span className="mono attach-name">{a.path ?? a.name}</span>
          <span className="muted">
            {a.status === 'uploading'
              ? t('composer.attachUploading')
              : a.status === 'error'
                ? a.error === 'too-large'
                  ? t('composer.attachTooLarge')
                  : envelopeErrorText(t, a.error)
                : formatBytes(a.size)}
          </span>
          <button
            type="button"
            className="icon-btn"
            aria-label={t('composer.attachRemove', { name: a.name })}
            onClick={() => remove(a.id)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The paper-clip button and its hidden file input. */
export function AttachButton() {
  const t = useT();
  const attach = useAppStore((s) => s.attachFiles);
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <IconButton label={t('composer.attach')} className="attach-btn" onClick={() => input.current?.click()} data-testid="attach-button">
        <ClipIcon />
      </IconButton>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        data-testid="attach-input"
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])];
          e.currentTarget.value = '';
          void attach(files);
        }}
      />
    </>
  );
}
