import { useEffect, useState } from 'react';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';

/**
 * A figure a cell saved into the workspace. The kernel names it by workspace path; its
 * bytes are read through the artifact store (the figure is captured as an artifact),
 * and shown as a data: URL (allowed by the CSP's img-src). Until the artifact is
 * listed, or in a build without the artifact store, the saved path is shown instead.
 */
export function Figure({ path, sessionId }: { path: string; sessionId: string }) {
  const t = useT();
  const artifacts = useAppStore((s) =>
    s.artifacts.sessionId === sessionId ? s.artifacts.data : null,
  );
  const readArtifact = useAppStore((s) => s.readArtifact);
  const version =
    artifacts?.find(
      (a) => a.path === path || a.path.endsWith(`/${path}`) || path.endsWith(`/${a.path}`),
    )?.latest ?? null;
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
        <img src={shown} alt={`${t('cell.figure')}: ${path}`} data-testid="cell-figure-img" />
      ) : (
        <div className="figure-placeholder" aria-hidden="true">
          <span className="figure-glyph">▦</span>
        </div>
      )}
      <figcaption className="muted mono">{t('cell.figureSaved', { path })}</figcaption>
    </figure>
  );
}
