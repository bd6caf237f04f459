import { useState } from 'react';
import { useT } from '../i18n/useT';
import { useAppStore } from '../store/context';
import { envelopeErrorText } from '../errors/envelopeText';
import { Icon } from './icons';

/** The header's Export button: writes the open session as a verifiable zip. */
export function ExportButton() {
  const t = useT();
  const run = useAppStore((s) => s.exportSession);
  const running = useAppStore(
    (s) => s.exported?.status === 'running' && s.exported.sessionId === s.conversation?.sessionId,
  );
  return (
    <button
      type="button"
      className="btn btn-ghost"
      onClick={() => void run()}
      disabled={running}
      aria-busy={running}
      title={t('export.hint')}
      data-testid="export-button"
    >
      {running ? <span className="spinner spinner-sm" aria-hidden="true" /> : <Icon name="download" size={14} />}{' '}
      {running ? t('export.running') : t('export.button')}
    </button>
  );
}

/**
 * Where the export went: the zip's path, how many files it holds and the manifest
 * digest that pins them (what `openai4s verify` checks), or why it failed.
 */
export function ExportResultBar() {
  const t = useT();
  const exported = useAppStore((s) =>
    s.exported && s.exported.sessionId === s.conversation?.sessionId ? s.exported : null,
  );
  const dismiss = useAppStore((s) => s.dismissExport);
  const [copied, setCopied] = useState(false);
  if (!exported || exported.status === 'running') return null;
  if (exported.status === 'error')
    return (
      <div className="export-bar export-bar-error" role="alert" data-testid="export-result" data-status="error">
        <div className="export-bar-body">
          <strong>{t('export.failed')}</strong>
          <span>{envelopeErrorText(t, exported.error)}</span>
        </div>
        <button type="button" className="icon-btn" aria-label={t('export.dismiss')} onClick={dismiss}>
          ×
        </button>
      </div>
    );
  const r = exported.result!;
  const copy = () => {
    void navigator.clipboard?.writeText(r.file).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <div className="export-bar" role="status" data-testid="export-result" data-status="done">
      <span className="export-icon" aria-hidden="true">
        <Icon name="check" size={14} />
      </span>
      <div className="export-bar-body">
        <strong>{t('export.done', { count: r.files })}</strong>
        <dl className="export-meta">
          <dt>{t('export.file')}</dt>
          <dd className="mono" data-testid="export-file">
            {r.file}
          </dd>
          <dt>{t('export.digest')}</dt>
          <dd className="mono" data-testid="export-digest">
            {r.digest}
          </dd>
        </dl>
        <span className="muted small">
          {r.revealed ? `${t('export.revealed')} ` : ''}
          {t('export.verifyHint')}
        </span>
      </div>
      <div className="export-bar-actions">
        <button type="button" className="btn btn-ghost" onClick={copy}>
          {copied ? t('export.copied') : t('export.copy')}
        </button>
        <button type="button" className="icon-btn" aria-label={t('export.dismiss')} onClick={dismiss}>
          ×
        </button>
      </div>
    </div>
  );
}
