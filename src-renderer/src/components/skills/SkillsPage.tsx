import { useEffect, useState } from 'react';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { PageHead } from '../ui';
import { NewSkillForm } from './NewSkillForm';
import { SkillDetailView } from './SkillDetailView';
import { SkillList } from './SkillList';
import { SkillProblems } from './SkillProblems';
import '../../styles/skills.css';
import { envelopeErrorText } from '../../errors/envelopeText';

/** The Skills page: every skill with its source and switch, its SKILL.md, "new skill", and what could not be read. */
export function SkillsPage() {
  const t = useT();
  const catalog = useAppStore((s) => s.skills);
  const selected = useAppStore((s) => s.skill.name);
  const load = useAppStore((s) => s.loadSkills);
  const [creating, setCreating] = useState(false);

  // Read fresh each time the page opens: skills are folders the user may have just edited.
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section className="system skills-page" aria-labelledby="skills-title">
      <PageHead
        id="skills-title"
        title={t('skills.title')}
        subtitle={t('skills.subtitle')}
        actions={
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => setCreating(true)}
            disabled={creating || !catalog.data}
            data-testid="new-skill"
          >
            {t('skills.new')}
          </button>
        }
      />
      {catalog.error ? (
        <div className="alert" role="alert">
          {envelopeErrorText(t, catalog.error)}
        </div>
      ) : null}
      {creating && catalog.data ? (
        <NewSkillForm userDir={catalog.data.userDir} onDone={() => setCreating(false)} />
      ) : null}
      {catalog.data ? (
        <>
          <div className="skills-layout">
            <SkillList skills={catalog.data.skills} selected={selected} />
            <SkillDetailView />
          </div>
          <SkillProblems catalog={catalog.data} />
        </>
      ) : catalog.status === 'loading' ? (
        <p className="muted">{t('skills.loading')}</p>
      ) : null}
    </section>
  );
}
