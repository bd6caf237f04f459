import type { SkillView } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { SkillReadinessLine } from './SkillReadinessLine';
import { SourceBadge } from './SourceBadge';

function SkillRow({ skill, selected }: { skill: SkillView; selected: boolean }) {
  const t = useT();
  const select = useAppStore((s) => s.selectSkill);
  const setEnabled = useAppStore((s) => s.setSkillEnabled);
  return (
    <li
      className={`skill-row${selected ? ' active' : ''}${skill.enabled ? '' : ' disabled'}`}
      data-testid="skill-row"
      data-skill={skill.name}
      data-enabled={skill.enabled}
    >
      <button
        type="button"
        className="skill-open"
        aria-current={selected ? 'true' : undefined}
        onClick={() => void select(skill.name)}
      >
        <span className="skill-name mono">{skill.name}</span>
        <SourceBadge source={skill.source} />
        <span className="muted small skill-description">{skill.description}</span>
        <SkillReadinessLine readiness={skill.readiness} />
      </button>
      <label className="switch" title={t('skills.toggle', { name: skill.name })}>
        <input
          type="checkbox"
          role="switch"
          checked={skill.enabled}
          aria-label={t('skills.toggle', { name: skill.name })}
          onChange={(e) => void setEnabled(skill.name, e.target.checked)}
          data-testid="skill-toggle"
        />
        <span aria-hidden="true" className="switch-track" />
      </label>
    </li>
  );
}

/** Every readable skill, with its source and its switch; a click shows its SKILL.md. */
export function SkillList({ skills, selected }: { skills: SkillView[]; selected: string | null }) {
  const t = useT();
  if (skills.length === 0) return <p className="muted">{t('skills.empty')}</p>;
  return (
    <ul className="skill-list" aria-label={t('skills.title')} data-testid="skill-list">
      {skills.map((s) => (
        <SkillRow key={s.name} skill={s} selected={s.name === selected} />
      ))}
    </ul>
  );
}
