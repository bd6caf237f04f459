import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import type { SkillPickerState } from './useSkillPicker';
import '../../styles/skills.css';

/** The list the `@` picker shows above the message box. */
export function SkillPicker({ picker }: { picker: SkillPickerState }) {
  const t = useT();
  const loading = useAppStore((s) => s.skills.status === 'loading' && !s.skills.data);
  if (!picker.open) return null;
  if (picker.options.length === 0)
    return (
      <div className="skill-picker muted small" role="status" data-testid="skill-picker">
        {loading ? t('skills.loading') : t('composer.skills.none', { query: picker.query })}
      </div>
    );
  return (
    <ul
      className="skill-picker"
      role="listbox"
      id={picker.listId}
      aria-label={t('composer.skills.label')}
      data-testid="skill-picker"
    >
      {picker.options.map((skill, i) => (
        <li
          key={skill.name}
          id={picker.optionId(i)}
          role="option"
          aria-selected={i === picker.active}
          className="skill-option"
          data-skill={skill.name}
          // Keeps the focus (and the caret) in the message box.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => picker.choose(skill.name)}
        >
          <span className="mono">@{skill.name}</span>
          <span className="muted small">{skill.description}</span>
        </li>
      ))}
    </ul>
  );
}
