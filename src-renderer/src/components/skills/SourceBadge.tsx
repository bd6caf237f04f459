import type { SkillSourceKind } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';

/** Each source's colour (the shared pill tones). */
const SOURCE_TONE: Record<SkillSourceKind, 'neutral' | 'ok' | 'warn'> = { bundled: 'neutral', user: 'ok', folder: 'warn' };

/** Where a skill comes from: bundled with the app, the user's own folder, or an added folder. */
export function SourceBadge({ source }: { source: SkillSourceKind }) {
  const t = useT();
  return (
    <span className={`badge pill-${SOURCE_TONE[source]}`} data-testid="skill-source">
      {t(`skills.source.${source}`)}
    </span>
  );
}
