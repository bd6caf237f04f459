import type { ApprovalEventData, HostCallEventData, WindowApprovalAnswer } from '../../../../src-preload/contract/approvals';
import type { MessageKey } from '../../i18n/messages';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { Icon } from '../icons';
import { ApprovalReason } from './ApprovalReason';

/** Questions of the safety layers: about one step, so "Always" is not offered (the core refuses it too). */
const ONE_STEP_QUESTIONS = new Set(['cell_review', 'biosecurity_screen']);

const BUTTONS: readonly [WindowApprovalAnswer, MessageKey, string][] = [
  ['allow_once', 'approval.allowOnce', 'btn btn-primary'],
  ['allow_session', 'approval.allowSession', 'btn'],
  ['allow_always', 'approval.always', 'btn'],
  ['deny', 'approval.deny', 'btn btn-danger'],
];

/**
 * A pending approval in the conversation: what the agent wants, its reason, and Allow once /
 * Allow for this session / Always / Deny. The native dialog asks the same question; whichever
 * is answered first decides and the other goes away, so a dialog lost behind a window never
 * holds the run.
 */
export function ApprovalCard({ data }: { data: ApprovalEventData }) {
  const t = useT();
  const decide = useAppStore((s) => s.decideApproval);
  const sending = useAppStore((s) => s.approvalAnswers[data.requestId]);
  const oneStep = ONE_STEP_QUESTIONS.has(data.tool);
  const titleId = `approval-${data.requestId}`;
  return (
    <section className="approval-card" aria-labelledby={titleId} data-testid="approval-card" data-request-id={data.requestId} data-state={data.state}>
      <header className="approval-head">
        <Icon name="shield" />
        <h4 id={titleId}>{t('approval.title')}</h4>
      </header>
      <p className="approval-question" role="alert">
        {oneStep ? t('approval.safetyQuestion', { tool: data.tool }) : t('approval.question', { tool: data.tool, target: data.target })}
      </p>
      <p className="approval-why small">
        <span className="muted">{t('approval.reason')}:</span>
        {data.reason ? <ApprovalReason reason={data.reason} /> : <span className="muted small"> {t('approval.noReason')}</span>}
      </p>
      <div className="approval-actions" role="group" aria-label={t('approval.title')}>
        {BUTTONS.filter(([answer]) => !(oneStep && answer === 'allow_always')).map(([answer, label, className]) => (
          <button
            key={answer}
            type="button"
            className={className}
            disabled={sending !== undefined}
            aria-busy={sending === answer || undefined}
            title={answer === 'allow_always' ? t('approval.alwaysHint', { tool: data.tool, target: data.target }) : undefined}
            onClick={() => void decide(data.requestId, answer)}
            data-testid={`approval-${answer}`}
          >
            {t(label)}
          </button>
        ))}
      </div>
      <p className="muted small">{sending ? t('approval.sending') : t('approval.alsoDialog')}</p>
    </section>
  );
}

export type DeniedBy = 'user' | 'rule' | 'headless' | 'expired' | 'unknown';

/** Who denied a call: the approval's answer when it was asked, else the policy decision the host reported. */
export function deniedBy(approval: ApprovalEventData | undefined, hostCall: HostCallEventData | undefined): DeniedBy {
  if (approval?.state === 'expired') return 'expired';
  if (approval?.state === 'denied') return approval.answeredBy === 'headless' ? 'headless' : 'user';
  if (hostCall?.decidedBy === 'rule') return 'rule';
  return 'unknown';
}

/** Why a call did not run, and how to change that (a rule links to Settings). */
export function DenialNote({ by }: { by: DeniedBy }) {
  const t = useT();
  const setView = useAppStore((s) => s.setView);
  return (
    <div className="denied" data-testid="tool-denied" data-denied-by={by}>
      <p data-testid="denial-text">{t(`denied.${by}` as MessageKey)}</p>
      {by === 'rule' ? (
        <button type="button" className="btn btn-ghost" onClick={() => setView('settings')}>
          {t('denied.openRules')}
        </button>
      ) : null}
    </div>
  );
}

/** An answered approval outside a tool card (a cell's host call, a safety check): its answer and who gave it. */
export function ApprovalLine({ data }: { data: ApprovalEventData }) {
  const t = useT();
  const denied = data.state === 'denied' || data.state === 'expired';
  return (
    <div className={`activity-line ${denied ? 'tone-bad' : ''}`} data-testid="approval-line" data-state={data.state}>
      <span className="mono">{data.tool}</span>
      <span className="muted"> → {data.target}</span>
      <span className={`pill pill-${denied ? 'bad' : 'ok'}`}>
        {t(`approval.answered.${data.state}` as MessageKey)}
        {data.answeredBy ? ` · ${t(`approval.by.${data.answeredBy}`)}` : ''}
      </span>
      {data.reason ? <ApprovalReason reason={data.reason} /> : null}
      {denied ? <DenialNote by={deniedBy(data, undefined)} /> : null}
    </div>
  );
}
