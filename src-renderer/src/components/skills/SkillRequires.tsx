import type { SkillView } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';

/**
 * What the skill says it needs (from its frontmatter's metadata). Whether this computer's
 * kernel environment has it is SkillReadinessLine's job (main probes, the page shows).
 */
export function SkillRequires({ requires }: { requires: SkillView['requires'] }) {
  const t = useT();
  const rows = [
    ['skills.requires.python', requires.python.join(', ')],
    ['skills.requires.r', requires.r.join(', ')],
    ['skills.requires.env', requires.env ?? ''],
  ] as const;
  const declared = rows.filter(([, value]) => value !== '');
  if (declared.length === 0)
    return (
      <p className="muted small" data-testid="skill-requires">
        {t('skills.requires.none')}
      </p>
    );
  return (
    <dl className="fields skill-requires" data-testid="skill-requires">
      {declared.map(([label, value]) => (
        <div className="field" key={label}>
          <dt>{t(label)}</dt>
          <dd className="mono">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
