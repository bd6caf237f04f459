import { useEffect, useState } from 'react';
import type { ErrorBody, KernelLanguage } from '../../../../src-preload/contract';
import type { EnvironmentView } from '../../../../src-preload/contract/environments';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { envelopeErrorText } from '../../errors/envelopeText';

const LANGUAGES: KernelLanguage[] = ['python', 'r'];

/**
 * The open session's environment per kernel language (issue 18): each option is an
 * environment's id and readiness; choosing one switches the session (env.use), which
 * ends that language's kernel so the next cell starts in the new interpreter. A switch
 * waits for the kernel's holder (the agent's run, a cell: the kernel lease) and says who.
 */
export function EnvironmentPicker({ sessionId }: { sessionId: string }) {
  const t = useT();
  const environments = useAppStore((s) => s.environments);
  const load = useAppStore((s) => s.loadEnvironments);
  const choose = useAppStore((s) => s.chooseEnvironment);
  const loadKernels = useAppStore((s) => s.loadKernels);
  const holder = useAppStore((s) => (s.kernels.sessionId === sessionId ? (s.kernels.data?.lease?.holder ?? null) : null));
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<ErrorBody | null>(null);

  useEffect(() => {
    setProblem(null);
    void load(sessionId);
  }, [sessionId, load]);

  const list = environments.sessionId === sessionId ? environments.data : null;
  const readiness = (env: EnvironmentView) =>
    env.ready
      ? t('settings.environments.ready')
      : env.missing.length
        ? t('kernel.environment.missingCount', { count: env.missing.length })
        : t('settings.environments.notReady');
  const pick = async (environmentId: string) => {
    setPending(true);
    const switched = choose(sessionId, environmentId);
    // Who holds the kernel now: shown while the switch waits for it.
    void loadKernels(sessionId);
    setProblem(await switched);
    setPending(false);
  };

  return (
    <div className="environment-picker" data-testid="environment-picker">
      {environments.status === 'error' && environments.sessionId === sessionId ? (
        <p className="small error-text">{envelopeErrorText(t, environments.error)}</p>
      ) : null}
      {list
        ? LANGUAGES.map((language) => {
            const options = list.environments.filter((env) => env.language === language);
            const current = list.current[language]?.environmentId ?? '';
            if (options.length === 0) return null;
            return (
              <label key={language} className="field">
                <span>{t('kernel.environment.label', { language: t(`kernel.language.${language}`) })}</span>
                <select
                  value={current}
                  disabled={pending}
                  data-testid={`environment-select-${language}`}
                  onChange={(e) => void pick(e.target.value)}
                >
                  {/* The session's choice may no longer be found on this machine: it still shows. */}
                  {options.some((env) => env.id === current) ? null : <option value={current}>{current}</option>}
                  {options.map((env) => (
                    // One that cannot run (no interpreter, too old for the kernels) is shown, not offered.
                    <option key={env.id} value={env.id} disabled={Boolean(env.reason) && env.id !== current} title={env.reason}>
                      {`${env.id} (${readiness(env)})`}
                    </option>
                  ))}
                </select>
              </label>
            );
          })
        : null}
      {pending && holder && holder.kind !== 'environment' ? (
        <p className="small muted" role="status" data-testid="environment-waiting">
          {t('notebook.user.waiting', { holder: t(`notebook.holder.${holder.kind}`) })}
        </p>
      ) : null}
      {problem ? (
        <div className="alert" role="alert">
          {envelopeErrorText(t, problem)}
        </div>
      ) : null}
    </div>
  );
}
