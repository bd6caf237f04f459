import { useEffect, useState } from 'react';
import type { ArtifactVersion } from '../../../../src-preload/contract/artifacts';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';

/** PDFs are read whole up to this size to count their pages; bigger ones are saved, not counted. */
const PDF_BYTES = 16 * 1024 * 1024;

/** Page objects of a PDF (`/Type /Page`, not `/Pages`); null when there is none to count (compressed object streams). */
export function pdfPageCount(bytes: string): number | null {
  const pages = bytes.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  return pages > 0 ? pages : null;
}

/**
 * A PDF artifact (issue 25): never rendered here (the window's policy loads no plugin and
 * no frame), but described (its pages), saved under its own name, and shown through the
 * figure's PNG when the kernel drew both (matplotlib writes `a.png`, `a.svg`, `a.pdf`).
 */
export function PdfPreview({ version }: { version: ArtifactVersion }) {
  const t = useT();
  const read = useAppStore((s) => s.readArtifact);
  const twin = useAppStore((s) =>
    s.artifacts.sessionId === version.sessionId ? (s.artifacts.data.find((a) => a.path === version.path.replace(/\.pdf$/i, '.png'))?.latest ?? null) : null,
  );
  const [pdf, setPdf] = useState<{ id: string; base64: string; pages: number | null } | null>(null);
  const [image, setImage] = useState<{ id: string; url: string } | null>(null);

  useEffect(() => {
    let live = true;
    read(version.id, PDF_BYTES).then(
      (b) => live && setPdf({ id: version.id, base64: b.base64, pages: b.truncated ? null : pdfPageCount(atob(b.base64)) }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [version.id, read]);
  useEffect(() => {
    if (!twin) return;
    let live = true;
    read(twin.id).then(
      (b) => live && setImage({ id: twin.id, url: `data:${b.mime};base64,${b.base64}` }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [twin, read]);

  const mine = pdf && pdf.id === version.id ? pdf : null;
  const save = () => {
    if (!mine) return;
    const link = document.createElement('a');
    link.href = `data:application/pdf;base64,${mine.base64}`;
    link.download = version.path.split('/').pop() ?? 'document.pdf';
    link.click();
  };
  return (
    <div className="artifact-preview" data-kind="pdf" data-testid="pdf-preview">
      <p className="muted small" data-testid="pdf-pages">
        {mine?.pages ? t('panel.artifacts.pdfPages', { count: mine.pages }) : t('panel.artifacts.pdf')}
        {mine ? (
          <button type="button" className="btn btn-ghost" data-testid="pdf-save" onClick={save}>
            {t('panel.artifacts.save')}
          </button>
        ) : null}
      </p>
      {twin && image && image.id === twin.id ? (
        <figure className="pdf-twin">
          <img className="preview-image" src={image.url} alt={twin.path} data-testid="pdf-twin-image" />
          <figcaption className="muted small">{t('panel.artifacts.pdfTwin', { path: twin.path })}</figcaption>
        </figure>
      ) : null}
    </div>
  );
}
