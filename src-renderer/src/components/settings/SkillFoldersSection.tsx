import { useState } from 'react';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import type { SaveSettings } from './saveSettings';
import { Section } from './Section';

/** Same rule as the settings route: an absolute path (POSIX, or a Windows drive). */
const ABSOLUTE = /^(\/|[A-Za-z]:[\\/])/;
/** One empty list for every render: a selector answering a new [] each time makes React re-render forever. */
const NONE: readonly string[] = [];

/**
 * Extra folders of skills (e.g. a published collection), read after the bundled skills
 * and the user's own; the Skills page lists what they hold.
 */
export function SkillFoldersSection({ save }: { save: SaveSettings }) {
  const t = useT();
  const folders = useAppStore((s) => s.settings.data?.settings.skillFolders ?? NONE);
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = () => {
    const dir = draft.trim();
    if (!dir) return;
    if (!ABSOLUTE.test(dir)) return setProblem(t('settings.skillFolders.notAbsolute'));
    if (folders.includes(dir)) return setProblem(t('settings.skillFolders.duplicate'));
    setProblem(null);
    setDraft('');
    void save({ skillFolders: [...folders, dir] });
  };
  return (
    <Section title={t('settings.skillFolders.title')} note={t('settings.skillFolders.note')}>
      <ul className="skill-folders" data-testid="skill-folders">
        {folders.map((dir) => (
          <li key={dir}>
            <code>{dir}</code>
            <button type="button" className="link" onClick={() => void save({ skillFolders: folders.filter((f) => f !== dir) })}>
              {t('settings.skillFolders.remove')}
            </button>
          </li>
        ))}
      </ul>
      <label className="field">
        <span>{t('settings.skillFolders.label')}</span>
        <input
          type="text"
          value={draft}
          placeholder="/home/me/skills"
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') add();
          }}
          data-testid="skill-folder-input"
        />
      </label>
      <button type="button" onClick={add} disabled={!draft.trim()} data-testid="skill-folder-add">
        {t('settings.skillFolders.add')}
      </button>
      {problem ? (
        <div className="alert" role="alert">
          {problem}
        </div>
      ) : null}
    </Section>
  );
}
