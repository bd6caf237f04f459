import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { attachedSkills, removeMention } from './skillMention';

/** The skills the message will attach (`@name` of an enabled skill), each removable. */
export function SkillChips({ text, setText }: { text: string; setText(text: string): void }) {
  const t = useT();
  const enabled = useAppStore(
    useShallow((s) => s.skills.data?.skills.filter((k) => k.enabled).map((k) => k.name) ?? []),
  );
  const ensureSkills = useAppStore((s) => s.ensureSkills);
  const mentions = text.includes('@');
  // A pasted `@name` shows its chip too: the catalogue is read the first time one appears.
  useEffect(() => {
    if (mentions) ensureSkills();
  }, [mentions, ensureSkills]);
  const names = attachedSkills(text, enabled);
  if (names.length === 0) return null;
  return (
    <ul
      className="skill-chips"
      aria-label={t('composer.skills.attached')}
      data-testid="skill-chips"
    >
      {names.map((name) => (
        <li key={name} className="skill-chip" data-testid="skill-chip" data-skill={name}>
          <span className="mono">@{name}</span>
          <button
            type="button"
            className="icon-btn"
            aria-label={t('composer.skills.remove', { name })}
            onClick={() => setText(removeMention(text, name))}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
