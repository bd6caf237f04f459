import type { ConnectionTestResult, ErrorBody, ProviderStatus } from '../../../../src-preload/contract';
import { explainProblem } from '../../errors/explain';
import { providerContext } from '../../errors/providerContext';
import type { MessageKey } from '../../i18n/messages';
import { useT } from '../../i18n/useT';
import { envelopeErrorText } from '../../errors/envelopeText';
import { ProblemDetails } from '../failure/ProblemDetails';
import { providerName } from '../providerName';

/** The outcome of Test connection: the model answered, or what to do, with the provider's own words behind "details". */
export function TestOutcome({ result, provider }: { result: ConnectionTestResult | { error: ErrorBody }; provider: ProviderStatus | null }) {
  const t = useT();
  if ('error' in result) {
    return (
      <p className="setup-outcome tone-bad" role="alert" data-testid="test-outcome" data-ok="false">
        {envelopeErrorText(t, result.error)}
      </p>
    );
  }
  if (result.ok) {
    return (
      <p className="setup-outcome tone-ok" role="status" data-testid="test-outcome" data-ok="true">
        <span aria-hidden="true">✓ </span>
        {t('setup.testOk', { model: result.model, seconds: (result.elapsedMs / 1000).toFixed(1) })}
      </p>
    );
  }
  const ctx = providerContext(provider, { baseUrl: result.baseUrl, model: result.model, id: result.providerId }, (p) => providerName(p, t));
  const why = explainProblem({ ...result.problem }, ctx, t('problem.someProvider'));
  return (
    <div className="setup-outcome tone-bad" role="alert" data-testid="test-outcome" data-ok="false" data-kind={why.kind}>
      <p>{t(`problem.${why.kind}` as MessageKey, why.params)}</p>
      <ProblemDetails code={result.problem.code} status={result.problem.status} message={result.problem.message} />
    </div>
  );
}
