import { useState } from 'react';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';

const FORMATS = [
  { format: 'bibtex', label: 'BibTeX', extension: 'bib', mime: 'application/x-bibtex' },
  { format: 'ris', label: 'RIS', extension: 'ris', mime: 'application/x-research-info-systems' },
] as const;

/** Saves text as a file through the browser's download (Electron asks where to save it). */
function download(text: string, filename: string, mime: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${mime};charset=utf-8` }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  URL.revokeObjectURL(url);
}

/**
 * The Evidence tab's export of the session's literature (the same entries as
 * `openai4s bibliography`): one button per format; with nothing to export, it says so.
 */
export function BibliographyExport({ sessionId }: { sessionId: string }) {
  const t = useT();
  const exportBibliography = useAppStore((s) => s.exportBibliography);
  const [busy, setBusy] = useState(false);
  const [empty, setEmpty] = useState(false);
  const run = async (f: (typeof FORMATS)[number]) => {
    setBusy(true);
    try {
      const result = await exportBibliography(sessionId, f.format);
      if (!result) return;
      setEmpty(result.count === 0);
      if (result.count > 0) download(result.text, `references-${sessionId}.${f.extension}`, f.mime);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="bibliography-export small" data-testid="bibliography-export">
      <span className="muted">{t('panel.evidence.export')}</span>{' '}
      {FORMATS.map((f) => (
        <button key={f.format} type="button" className="btn btn-ghost" disabled={busy} onClick={() => void run(f)}>
          {f.label}
        </button>
      ))}
      {empty ? (
        <p className="muted small" role="status">
          {t('panel.evidence.exportNone')}
        </p>
      ) : null}
    </div>
  );
}
