import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { Markdown } from '../parts/Markdown';
import { SkillRequires } from './SkillRequires';
import { SkillReadinessLine } from './SkillReadinessLine';
import { SourceBadge } from './SourceBadge';
import { envelopeErrorText } from '../../errors/envelopeText';

/** The selected skill: its SKILL.md rendered, what it requires, its files and its folder. */
export function SkillDetailView() {
  const t = useT();
  const skill = useAppStore((s) => s.skill);
  const reveal = useAppStore((s) => s.revealSkill);
  if (!skill.name) return <p className="muted skill-placeholder">{t('skills.select')}</p>;
  if (skill.status === 'error')
    return (
      <p className="error-text" role="alert">
        {envelopeErrorText(t, skill.error)}
      </p>
    );
  const detail = skill.data;
  if (!detail) return <p className="muted">{t('skills.loading')}</p>;
  return (
    <article className="card skill-detail" data-testid="skill-detail" data-skill={detail.name}>
      <header className="card-head">
        <h2 className="mono">{detail.name}</h2>
        <SourceBadge source={detail.source} />
        <span className="grow" />
        <button type="button" className="btn btn-ghost" onClick={() => void reveal(detail.name)}>
          {t('skills.openFolder')}
        </button>
      </header>
      <p className="muted small mono skill-dir" title={detail.dir}>
        {detail.dir}
        {detail.license ? ` · ${t('skills.license')}: ${detail.license}` : ''}
      </p>
      <h3 className="section-label">{t('skills.requires')}</h3>
      <SkillRequires requires={detail.requires} />
      <SkillReadinessLine readiness={detail.readiness} />
      {detail.files.length ? (
        <>
          <h3 className="section-label">{t('skills.files')}</h3>
          <ul className="skill-files mono small">
            {detail.files.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        </>
      ) : null}
      <div className="skill-body" data-testid="skill-body">
        <Markdown text={detail.body} />
      </div>
    </article>
  );
}
