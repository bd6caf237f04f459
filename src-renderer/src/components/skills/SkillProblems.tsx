import type { SkillCatalogView } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { SourceBadge } from './SourceBadge';

/** Folders that could not be read (with the reason) and skills hidden by a name clash (with the winner). */
export function SkillProblems({ catalog }: { catalog: SkillCatalogView }) {
  const t = useT();
  return (
    <>
      {catalog.broken.length ? (
        <section className="card skill-problems" data-testid="skills-broken">
          <h2>{t('skills.broken.title')}</h2>
          <ul>
            {catalog.broken.map((b) => (
              <li key={b.dir}>
                <span className="mono small">{b.dir}</span>
                <span className="error-text small">{b.reason}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {catalog.shadowed.length ? (
        <section className="card skill-problems" data-testid="skills-shadowed">
          <h2>{t('skills.shadowed.title')}</h2>
          <ul>
            {catalog.shadowed.map((s) => (
              <li key={`${s.name}:${s.dropped.dir}`}>
                <SourceBadge source={s.dropped.source} />{' '}
                {t('skills.shadowed.item', { name: s.name, kept: s.kept.dir })}
                <span className="mono small muted">{s.dropped.dir}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
