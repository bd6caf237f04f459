import { useEffect } from 'react';
import type { WorkspaceFileEntry, WorkspaceFilePreview } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { envelopeErrorText } from '../../errors/envelopeText';
import { useAppStore } from '../../store/context';
import { formatBytes } from '../parts/format';
import { cellActivity } from './KernelPanel';
import '../../styles/files.css';

const TEXT_MIME = /^(text\/|application\/(json|yaml|x-bibtex)$|chemical\/)/;

/** Bytes that read as text: no NUL in the start (an unknown extension may still be a table or a log). */
function looksLikeText(bytes: Uint8Array): boolean {
  return !bytes.subarray(0, 8192).includes(0);
}

function decode(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A preview as data, never markup: images through a data: URL in an <img>, text as text. */
function PreviewBody({ data }: { data: WorkspaceFilePreview }) {
  const t = useT();
  if (data.mime.startsWith('image/')) {
    if (data.truncated) return <p className="small muted">{t('files.preview.tooLarge', { size: formatBytes(data.size) })}</p>;
    return <img className="files-preview-image" data-testid="files-preview-image" src={`data:${data.mime};base64,${data.base64}`} alt={data.path} />;
  }
  const bytes = decode(data.base64);
  if (TEXT_MIME.test(data.mime) || (data.mime === 'application/octet-stream' && looksLikeText(bytes))) {
    return (
      <>
        <pre className="files-preview-text mono small" data-testid="files-preview-text">
          {new TextDecoder('utf-8').decode(bytes)}
        </pre>
        {data.truncated ? <p className="small muted">{t('files.preview.cut', { shown: formatBytes(bytes.length), size: formatBytes(data.size) })}</p> : null}
      </>
    );
  }
  return <p className="small muted" data-testid="files-preview-none">{t('files.preview.none', { size: formatBytes(data.size) })}</p>;
}

function FileRow({ sessionId, entry }: { sessionId: string; entry: WorkspaceFileEntry }) {
  const t = useT();
  const openFolder = useAppStore((s) => s.openFolder);
  const preview = useAppStore((s) => s.previewWorkspaceFile);
  const save = useAppStore((s) => s.saveWorkspaceFileAsArtifact);
  const attach = useAppStore((s) => s.attachWorkspaceFile);
  const attached = useAppStore((s) => s.attachments.sessionId === sessionId && s.attachments.items.some((a) => a.path === entry.path));
  return (
    <li className="files-row" data-testid="files-row" data-kind={entry.kind} data-path={entry.path}>
      {entry.kind === 'dir' ? (
        <button type="button" className="files-link mono" data-testid="files-open" onClick={() => void openFolder(sessionId, entry.path)}>
          {entry.name}/
        </button>
      ) : entry.kind === 'file' ? (
        <button type="button" className="files-link mono" data-testid="files-open" onClick={() => void preview(sessionId, entry.path)}>
          {entry.name}
        </button>
      ) : (
        // A symlink (or a fifo, a socket) is shown, never opened: it may lead outside the workspace.
        <span className="mono muted" title={t('files.notFollowed')}>
          {entry.name} <span className="badge">{t(entry.kind === 'link' ? 'files.link' : 'files.other')}</span>
        </span>
      )}
      <span className="grow" />
      {entry.kind === 'file' ? (
        <>
          <span className="small muted">{formatBytes(entry.size ?? 0)}</span>
          <button type="button" className="btn btn-ghost" data-testid="files-attach" disabled={attached} onClick={() => attach(sessionId, entry)}>
            {t(attached ? 'files.attached' : 'files.attach')}
          </button>
          <button type="button" className="btn btn-ghost" data-testid="files-save-artifact" onClick={() => void save(sessionId, entry.path)}>
            {t('files.saveArtifact')}
          </button>
        </>
      ) : null}
    </li>
  );
}

/**
 * The session workspace's files (issue 25): open folders, preview a file, attach it to the
 * next message, save it as an artifact version. Listed and read by the core through safeFs
 * (`workspace.*` routes); refreshed when a cell starts or ends, since cells write files.
 */
export function WorkspaceFiles({ sessionId }: { sessionId: string }) {
  const t = useT();
  const files = useAppStore((s) => s.files);
  const openFolder = useAppStore((s) => s.openFolder);
  const closePreview = useAppStore((s) => s.closeWorkspacePreview);
  const activity = useAppStore((s) => `${cellActivity(s.conversation)}#${s.notebook.versions.length}`);
  const mine = files.sessionId === sessionId;
  const folder = mine ? files.folder : '.';

  useEffect(() => {
    void openFolder(sessionId, folder);
    // `folder` is read, not watched: opening a folder lists it already.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sessionId, activity, openFolder]);

  const crumbs = folder === '.' ? [] : folder.split('/');
  const preview = mine ? files.preview : null;
  const saved = mine ? files.saved : null;
  return (
    <section className="workspace-files" aria-label={t('files.title')} data-testid="workspace-files" data-status={mine ? files.status : 'idle'} data-folder={folder}>
      <div className="user-notebook-bar">
        <strong className="small">{t('files.title')}</strong>
        <nav className="files-crumbs small mono" aria-label={t('files.folder')}>
          <button type="button" className="files-link" data-testid="files-crumb" onClick={() => void openFolder(sessionId, '.')}>
            {t('files.root')}
          </button>
          {crumbs.map((name, i) => (
            <span key={i}>
              /
              <button type="button" className="files-link" data-testid="files-crumb" onClick={() => void openFolder(sessionId, crumbs.slice(0, i + 1).join('/'))}>
                {name}
              </button>
            </span>
          ))}
        </nav>
        <span className="grow" />
        <button type="button" className="btn btn-ghost" data-testid="files-refresh" onClick={() => void openFolder(sessionId, folder)}>
          {t('files.refresh')}
        </button>
      </div>
      {mine && files.error ? (
        <p className="small error-text" role="alert" data-testid="files-error">
          {envelopeErrorText(t, files.error)}
        </p>
      ) : null}
      {saved ? (
        <p className={`small ${saved.error ? 'error-text' : 'muted'}`} role="status" data-testid="files-saved">
          {saved.error ? envelopeErrorText(t, saved.error) : t('files.savedArtifact', { path: saved.path, version: saved.version ?? 0 })}
        </p>
      ) : null}
      {mine && files.listing ? (
        files.listing.entries.length === 0 ? (
          <p className="small muted">{t('files.empty')}</p>
        ) : (
          <ul className="files-list small">
            {files.listing.entries.map((entry) => (
              <FileRow key={entry.path} sessionId={sessionId} entry={entry} />
            ))}
          </ul>
        )
      ) : null}
      {mine && files.listing?.truncated ? <p className="small muted">{t('files.truncated', { count: files.listing.entries.length })}</p> : null}
      {preview ? (
        <div className="files-preview" data-testid="files-preview" data-path={preview.path} data-status={preview.status}>
          <div className="user-notebook-bar">
            <span className="mono small">{preview.path}</span>
            <span className="grow" />
            <button type="button" className="btn btn-ghost" data-testid="files-preview-close" onClick={closePreview}>
              {t('files.preview.close')}
            </button>
          </div>
          {preview.status === 'loading' ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
          {preview.error ? (
            <p className="small error-text" role="alert">
              {envelopeErrorText(t, preview.error)}
            </p>
          ) : null}
          {preview.data ? <PreviewBody data={preview.data} /> : null}
        </div>
      ) : null}
    </section>
  );
}
