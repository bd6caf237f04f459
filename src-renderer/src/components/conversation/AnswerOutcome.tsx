import '../../styles/failure.css';
import { useShallow } from 'zustand/react/shallow';
import type { UIMessage } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { branchInfo } from '../../store/branchView';
import { useAppStore } from '../../store/context';
import { RunFailure, runFailureOf } from '../failure/RunFailure';

/** The failure code of a failed run (its closing `error` chunk repeats it, so that part is not shown twice). */
export function runFailureCode(metadata: unknown): string | null {
  const failure = runFailureOf(metadata);
  return failure ? (failure.failureCode ?? 'internal') : null;
}

/**
 * What follows an answer: for a failed run the explained failure with Retry; for the
 * newest answer, Regenerate; for one a later attempt replaced, a note saying so.
 */
export function AnswerOutcome({ message, live }: { message: UIMessage; live: boolean }) {
  const t = useT();
  const info = useAppStore(useShallow((s) => branchInfo(s, message.id)));
  const retry = useAppStore((s) => s.retryRun);
  if (live) return null;
  const failed = runFailureOf(message.metadata) !== null;
  const wroteText = message.parts.some((p) => p.type === 'text' && p.text.trim() !== '');
  return (
    <>
      {failed ? <RunFailure runId={info.runId} metadata={message.metadata} wroteText={wroteText} canRetry={info.idle && !info.superseded} /> : null}
      {info.superseded ? (
        <p className="muted small superseded-note" data-testid="superseded-note">
          {t('run.superseded')}
        </p>
      ) : null}
      {!failed && info.lastAnswer && info.idle ? (
        <div className="msg-actions">
          <button type="button" className="link small" title={t('run.regenerateHint')} onClick={() => void retry(info.runId)} data-testid="regenerate">
            ↻ {t('run.regenerate')}
          </button>
        </div>
      ) : null}
    </>
  );
}
