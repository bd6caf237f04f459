import type { SkillSourceKind } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';

/** Where a skill comes from: bundled with the app, the user's own folder, or an added folder. */
export function SourceBadge({ source }: { source: SkillSourceKind }) {
  const t = useT();
  return (
    <span className={`badge skill-source skill-source-${source}`} data-testid="skill-source">
      {t(`skills.source.${source}`)}
    </span>
  );
}
