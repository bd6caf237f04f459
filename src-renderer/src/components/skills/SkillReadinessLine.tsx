import type { SkillView } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';

/**
 * Whether this computer's kernel environment has what the skill requires: "ready", or per
 * language what is missing in which environment and the command that installs it.
 */
export function SkillReadinessLine({ readiness }: { readiness: SkillView['readiness'] }) {
  const t = useT();
  // Not checked (an older main, or the check failed): say nothing rather than guess.
  if (!readiness) return null;
  if (readiness.ready)
    return (
      <span className="skill-readiness ready small" data-testid="skill-readiness" data-ready="true">
        {t('skills.readiness.ready')}
      </span>
    );
  return (
    <span className="skill-readiness missing small" data-testid="skill-readiness" data-ready="false">
      {readiness.languages
        .filter((l) => l.missing.length > 0)
        .map((l) => (
          <span key={l.language} className="skill-readiness-language">
            {t('skills.readiness.missing', { packages: l.missing.join(', '), env: l.environmentId })}
            {l.installCommand ? (
              <>
                {' — '}
                <code className="mono">{l.installCommand}</code>
              </>
            ) : null}
          </span>
        ))}
    </span>
  );
}
