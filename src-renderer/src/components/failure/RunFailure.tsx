import '../../styles/failure.css';
import { explainProblem, providerErrorOf } from '../../errors/explain';
import { findProvider, providerContext } from '../../errors/providerContext';
import type { MessageKey } from '../../i18n/messages';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { ProblemDetails } from './ProblemDetails';
import { providerName } from '../providerName';

interface RunMeta {
  provider?: unknown;
  model?: unknown;
  run?: { status?: unknown; failureCode?: unknown; failureMessage?: unknown };
}

const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/** The run's failure from its metadata, or null when it did not fail. */
export function runFailureOf(metadata: unknown): { failureCode: string | null; message: string; provider: string | null; model: string | null } | null {
  if (!metadata || typeof metadata !== 'object') return null;
  const meta = metadata as RunMeta;
  if (meta.run?.status !== 'failed') return null;
  return { failureCode: str(meta.run.failureCode), message: str(meta.run.failureMessage) ?? '', provider: str(meta.provider), model: str(meta.model) };
}

/**
 * A failed run: one sentence with the cause and the fix in the UI's language, Retry (a new
 * run that replaces this one), the provider setup when that is where the fix is, and the
 * raw message behind "details". A run that wrote text before failing says so: the text
 * stays readable above.
 */
export function RunFailure({ runId, metadata, wroteText, canRetry }: { runId: string; metadata: unknown; wroteText: boolean; canRetry: boolean }) {
  const t = useT();
  const view = useAppStore((s) => s.providers.data);
  const retry = useAppStore((s) => s.retryRun);
  const openSetup = useAppStore((s) => s.openSetup);
  const failure = runFailureOf(metadata);
  if (!failure) return null;
  const pe = providerErrorOf(metadata);
  const providerId = pe?.provider ?? failure.provider;
  const ctx = providerContext(findProvider(view, providerId), { id: providerId, model: failure.model }, (p) => providerName(p, t));
  const why = explainProblem(
    { failureCode: failure.failureCode, errorType: pe?.errorType ?? null, code: pe?.code ?? null, status: pe?.status ?? null, message: failure.message },
    ctx,
    t('problem.someProvider'),
  );
  return (
    <div className="run-failure" role="alert" data-testid="run-failure" data-kind={why.kind}>
      {wroteText ? <p className="run-failure-partial" data-testid="failure-partial">{t('failure.partial')}</p> : null}
      <p className="run-failure-text">{t(`problem.${why.kind}` as MessageKey, why.params)}</p>
      <div className="run-failure-actions">
        <button type="button" className="btn btn-primary" disabled={!canRetry} onClick={() => void retry(runId)} data-testid="failure-retry">
          {t('failure.retry')}
        </button>
        {why.fix === 'setup' ? (
          <button type="button" className="btn" onClick={() => openSetup(providerId)} data-testid="failure-setup">
            {t('failure.setup')}
          </button>
        ) : null}
      </div>
      <ProblemDetails code={pe?.code ?? failure.failureCode} status={pe?.status ?? null} message={failure.message} />
    </div>
  );
}
