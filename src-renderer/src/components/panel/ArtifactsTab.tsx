import { useEffect, useState } from 'react';
import type { ArtifactSummary, ArtifactVersion } from '../../../../src-preload/contract/artifacts';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { FailedCellBadge } from '../parts/FailedCellBadge';
import { formatBytes } from '../parts/format';
import { ArtifactPreview } from './ArtifactPreview';
import { envelopeErrorText } from '../../errors/envelopeText';

function ArtifactDetail({ artifact }: { artifact: ArtifactSummary }) {
  const t = useT();
  const versionsOf = useAppStore((s) => s.artifactVersions);
  const reveal = useAppStore((s) => s.revealArtifact);
  const [versions, setVersions] = useState<ArtifactVersion[]>([artifact.latest]);
  const [selected, setSelected] = useState<string>(artifact.latest.id);
  useEffect(() => {
    let live = true;
    versionsOf(artifact.id).then(
      (v) => live && v.length && setVersions(v),
      () => undefined,
    );
    setSelected(artifact.latest.id);
    return () => {
      live = false;
    };
  }, [artifact.id, artifact.latest.id, versionsOf]);
  const version = versions.find((v) => v.id === selected) ?? artifact.latest;
  return (
    <div className="artifact-detail" data-testid="artifact-detail">
      {versions.length > 1 ? (
        <div
          className="version-tabs"
          role="group"
          aria-label={t('panel.artifacts.versions', { count: versions.length })}
        >
          {versions.map((v) => (
            <button
              key={v.id}
              type="button"
              className={v.id === selected ? 'active' : undefined}
              aria-pressed={v.id === selected}
              onClick={() => setSelected(v.id)}
            >
              {t('panel.artifacts.version', { number: v.number })}
            </button>
          ))}
        </div>
      ) : null}
      <p className="muted small mono">
        {version.mime} · {formatBytes(version.size)} · sha256 {version.sha256.slice(0, 12)}… ·{' '}
        {version.evidenceId} <FailedCellBadge outcome={version.cellOutcome} />
      </p>
      <button type="button" className="btn btn-ghost" onClick={() => void reveal(version.id)}>
        {t('panel.artifacts.reveal')}
      </button>
      <ArtifactPreview version={version} />
    </div>
  );
}

/** The session's artifacts with their versions and a preview of the chosen one. */
export function ArtifactsTab() {
  const t = useT();
  const sessionId = useAppStore((s) => s.conversation?.sessionId);
  const artifacts = useAppStore((s) => s.artifacts);
  const load = useAppStore((s) => s.loadArtifacts);
  const [open, setOpen] = useState<string | null>(null);
  useEffect(() => {
    if (sessionId && artifacts.sessionId !== sessionId) void load(sessionId);
  }, [sessionId, artifacts.sessionId, load]);
  if (!sessionId) return null;
  if (artifacts.status === 'error')
    return <p className="panel-empty error-text">{envelopeErrorText(t, artifacts.error)}</p>;
  if (artifacts.data.length === 0)
    return (
      <p className="panel-empty muted">
        {artifacts.status === 'loading' ? '…' : t('panel.artifacts.empty')}
      </p>
    );
  return (
    <ul className="artifact-list" data-testid="artifact-list">
      {artifacts.data.map((a) => (
        <li key={a.id} className={open === a.id ? 'open' : undefined}>
          <button
            type="button"
            className="artifact-row"
            aria-expanded={open === a.id}
            onClick={() => setOpen(open === a.id ? null : a.id)}
          >
            <span className="mono artifact-path">{a.path}</span>
            <span className="muted small">
              {t('panel.artifacts.versions', { count: a.versions })}{' '}
              · {formatBytes(a.latest.size)}
            </span>
            <FailedCellBadge outcome={a.latest.cellOutcome} />
          </button>
          {open === a.id ? <ArtifactDetail artifact={a} /> : null}
        </li>
      ))}
    </ul>
  );
}
