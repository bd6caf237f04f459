import { useEffect, useState } from 'react';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import '../../styles/figure.css';
import { Icon } from '../icons';

/**
 * A figure a cell saved into the workspace. The kernel names it by workspace path; its
 * bytes are read through the artifact store (the figure is captured as an artifact),
 * and shown as a data: URL (allowed by the CSP's img-src). Until the artifact is
 * listed, or in a build without the artifact store, the saved path is shown instead.
 */
export function Figure({ path, sessionId, svgPath, pdfPath }: { path: string; sessionId: string; svgPath?: string | undefined; pdfPath?: string | undefined }) {
  const t = useT();
  const artifacts = useAppStore((s) =>
    s.artifacts.sessionId === sessionId ? s.artifacts.data : null,
  );
  const readArtifact = useAppStore((s) => s.readArtifact);
  const reveal = useAppStore((s) => s.revealArtifact);
  const [zoomed, setZoomed] = useState(false);
  const find = (p: string) => artifacts?.find((a) => a.path === p || a.path.endsWith(`/${p}`) || p.endsWith(`/${a.path}`))?.latest ?? null;
  const version = find(path);
  const svgVersion = svgPath ? find(svgPath) : null;
  const pdfVersion = pdfPath ? find(pdfPath) : null;
  // Saves a version's bytes under its own file name (the browser's download).
  const save = (v: NonNullable<typeof version>) =>
    void readArtifact(v.id).then(
      (b) => {
        const link = document.createElement('a');
        link.href = `data:${b.mime};base64,${b.base64}`;
        link.download = v.path.split('/').pop() ?? 'figure';
        link.click();
      },
      () => undefined,
    );
  const [src, setSrc] = useState<{ id: string; url: string } | null>(null);

  useEffect(() => {
    if (!version || !version.mime.startsWith('image/')) return;
    let live = true;
    readArtifact(version.id).then(
      (b) => live && setSrc({ id: version.id, url: `data:${b.mime};base64,${b.base64}` }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [version, readArtifact]);

  const shown = src && version && src.id === version.id ? src.url : null;
  return (
    <figure className="cell-figure" data-testid="cell-figure" data-path={path}>
      {shown ? (
        <img
          src={shown}
          alt={`${t('cell.figure')}: ${path}`}
          data-testid="cell-figure-img"
          className={zoomed ? 'figure-zoomed' : undefined}
          title={t(zoomed ? 'cell.figureZoomOut' : 'cell.figureZoomIn')}
          onClick={() => setZoomed(!zoomed)}
        />
      ) : (
        <div className="figure-placeholder" aria-hidden="true">
          <span className="figure-glyph"><Icon name="grid" size={28} /></span>
        </div>
      )}
      <figcaption className="muted mono">
        {t('cell.figureSaved', { path })}
        {version ? (
          <button type="button" className="btn btn-ghost" data-testid="figure-save-png" onClick={() => save(version)}>
            {t('cell.figureSavePng')}
          </button>
        ) : null}
        {svgVersion ? (
          <button type="button" className="btn btn-ghost" data-testid="figure-save-svg" onClick={() => save(svgVersion)}>
            {t('cell.figureSaveSvg')}
          </button>
        ) : null}
        {pdfVersion ? (
          <button type="button" className="btn btn-ghost" data-testid="figure-save-pdf" onClick={() => save(pdfVersion)}>
            {t('cell.figureSavePdf')}
          </button>
        ) : null}
        {version ? (
          <button type="button" className="btn btn-ghost" data-testid="figure-reveal" onClick={() => void reveal(version.id)}>
            {t('cell.figureReveal')}
          </button>
        ) : null}
      </figcaption>
    </figure>
  );
}
