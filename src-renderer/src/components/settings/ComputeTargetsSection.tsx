import { useEffect, useState } from 'react';
import type { ErrorBody } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { Section } from './Section';
import { envelopeErrorText } from '../../errors/envelopeText';

const EXAMPLE = '{ "name": "hpc", "kind": "slurm", "host": "login.hpc.example.org", "user": "me", "identityFile": "/home/me/.ssh/id_ed25519", "partition": "gpu" }';

/**
 * Compute targets (issue 23): the Slurm clusters and SSH hosts jobs go to, as stored in
 * `<data root>/compute/targets.json`. A target is added or replaced by name from its JSON;
 * main refuses one that holds a key or a password and says why.
 */
export function ComputeTargetsSection() {
  const t = useT();
  const targets = useAppStore((s) => s.computeTargets);
  const load = useAppStore((s) => s.loadComputeTargets);
  const save = useAppStore((s) => s.saveComputeTarget);
  const remove = useAppStore((s) => s.removeComputeTarget);
  const [draft, setDraft] = useState('');
  // The window’s own words (not JSON), or main’s answer.
  const [problem, setProblem] = useState<string | ErrorBody | null>(null);
  useEffect(() => {
    void load();
  }, [load]);
  const add = async () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(draft);
    } catch {
      return setProblem(t('settings.compute.notJson'));
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return setProblem(t('settings.compute.notJson'));
    const error = await save(parsed as Record<string, unknown>);
    setProblem(error);
    if (!error) setDraft('');
  };
  return (
    <Section title={t('settings.compute.title')} note={t('settings.compute.note')} testId="compute-targets">
      {targets.error ? (
        <div className="alert" role="alert">
          {envelopeErrorText(t, targets.error)}
        </div>
      ) : null}
      {targets.data.length ? (
        <ul className="skill-folders" data-testid="compute-target-list">
          {targets.data.map((target) => (
            <li key={target.name}>
              <code>{target.name}</code> {target.kind} · {target.where}
              {target.partition ? ` · ${target.partition}` : ''}
              <button type="button" className="link" onClick={() => void remove(target.name).then(setProblem)}>
                {t('settings.compute.remove')}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">{t('settings.compute.none')}</p>
      )}
      <label className="field">
        <span>{t('settings.compute.label')}</span>
        <textarea rows={3} value={draft} placeholder={EXAMPLE} onChange={(e) => setDraft(e.target.value)} data-testid="compute-target-input" />
      </label>
      <button type="button" onClick={() => void add()} disabled={!draft.trim()} data-testid="compute-target-save">
        {t('settings.compute.save')}
      </button>
      {problem ? (
        <div className="alert" role="alert" data-testid="compute-target-error">
          {typeof problem === 'string' ? problem : envelopeErrorText(t, problem)}
        </div>
      ) : null}
    </Section>
  );
}
