import { useState } from 'react';
import type { ErrorBody } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { envelopeErrorText } from '../../errors/envelopeText';
import { useAppStore } from '../../store/context';

/** "New skill": a name and one sentence saying when to use it, written from the template. */
export function NewSkillForm({ userDir, onDone }: { userDir: string; onDone(): void }) {
  const t = useT();
  const create = useAppStore((s) => s.createSkill);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<ErrorBody | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="card new-skill"
      data-testid="new-skill-form"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        const failed = await create(name.trim(), description.trim());
        setBusy(false);
        setError(failed);
        if (!failed) onDone();
      }}
    >
      <p className="muted small">{t('skills.new.note', { dir: userDir })}</p>
      <div className="settings-row">
        <label>
          {t('skills.new.name')}
          <input
            className="mono"
            value={name}
            placeholder={t('skills.new.namePlaceholder')}
            spellCheck={false}
            autoFocus
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <label className="grow">
          {t('skills.new.description')}
          <input value={description} onChange={(e) => setDescription(e.target.value)} />
        </label>
      </div>
      {error ? (
        <p className="error-text" role="alert">
          {envelopeErrorText(t, error)}
        </p>
      ) : null}
      <div className="new-skill-actions">
        <button type="button" className="btn btn-ghost" onClick={onDone}>
          {t('skills.new.cancel')}
        </button>
        <button
          type="submit"
          className="btn btn-primary"
          disabled={busy || !name.trim() || !description.trim()}
        >
          {t('skills.new.create')}
        </button>
      </div>
    </form>
  );
}
