import type { CitedAnswer, ClaimBasis } from '../../../../src-preload/contract';
import type { MessageKey } from '../../i18n/messages';
import { useT } from '../../i18n/useT';
import { useShallow } from 'zustand/react/shallow';
import { useAppStore } from '../../store/context';
import { modelChoice } from '../../store/settingsSlice';
import { Markdown } from './Markdown';
import { evidenceChipLabel } from './evidenceText';
import { Icon } from '../icons';

export function BasisBadge({ basis }: { basis: ClaimBasis }) {
  const t = useT();
  return (
    <span
      className={`basis basis-${basis}`}
      title={t(`answer.basisHint.${basis}` as MessageKey)}
      data-testid="basis-badge"
    >
      {t(`answer.basis.${basis}` as MessageKey)}
    </span>
  );
}

/**
 * A citation chip: the record's human label ("UniProt P01308", "Smith 2023, Nature") once
 * the session's evidence list has it, the raw id until then; the id is always on hover.
 */
export function EvidenceLink({ id }: { id: string }) {
  const t = useT();
  const focus = useAppStore((s) => s.focusEvidence);
  // The stored record object itself (or undefined): a stable selection.
  const record = useAppStore((s) => s.evidence.data.find((r) => r.id === id));
  return (
    <button
      type="button"
      className={record ? 'evidence-chip' : 'evidence-chip mono'}
      // The name starts with what the chip shows (a label, or the id), then says what it opens.
      aria-label={record ? `${evidenceChipLabel(record, t)}: ${t('answer.openEvidence', { id })}` : t('answer.openEvidence', { id })}
      title={record ? `${id} · ${record.title}` : id}
      onClick={() => focus(id)}
      data-testid="evidence-link"
      data-evidence-id={id}
    >
      {record ? evidenceChipLabel(record, t) : id}
    </button>
  );
}

/**
 * The final cited answer: summary, each claim with its basis and evidence, limitations,
 * next steps, and suggested questions that send on click.
 */
export function AnswerCard({ answer, canAsk }: { answer: CitedAnswer; canAsk: boolean }) {
  const t = useT();
  // A suggested question goes through the readiness check: no provider ready (the demo) opens the setup.
  const ask = useAppStore((s) => s.ask);
  const choice = useAppStore(useShallow(modelChoice));
  return (
    <section className="answer-card" data-testid="answer-card" aria-label={t('answer.title')}>
      <header className="answer-head">
        <h3>{t('answer.title')}</h3>
        {!answer.cited ? <span className="pill pill-neutral">{t('answer.uncited')}</span> : null}
      </header>
      <Markdown text={answer.summary} />
      {answer.completion_bullets.length > 0 ? (
        <ul className="done-list" aria-label={t('answer.done')}>
          {answer.completion_bullets.map((b, i) => (
            <li key={i}>
              <span className="check" aria-hidden="true">
                <Icon name="check" size={14} />
              </span>
              {b}
            </li>
          ))}
        </ul>
      ) : null}
      {answer.claims.length > 0 ? (
        <div className="answer-section">
          <h4 className="section-label">{t('answer.claims')}</h4>
          <ol className="claims">
            {answer.claims.map((c, i) => (
              <li key={i} className="claim" data-testid="claim" data-basis={c.basis}>
                <div className="claim-main">
                  <BasisBadge basis={c.basis} />
                  <span className="claim-text">{c.statement}</span>
                </div>
                {c.evidence.length > 0 || c.uncertainty ? (
                  <div className="claim-meta">
                    {c.evidence.map((id) => (
                      <EvidenceLink key={id} id={id} />
                    ))}
                    {c.uncertainty ? (
                      <span className="muted small">
                        {t('answer.uncertainty')}: {c.uncertainty}
                      </span>
                    ) : null}
                  </div>
                ) : null}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
      <div className="answer-grid">
        {answer.limitations.length > 0 ? (
          <div className="answer-section" data-testid="limitations">
            <h4 className="section-label">{t('answer.limitations')}</h4>
            <ul>
              {answer.limitations.map((l, i) => (
                <li key={i}>{l}</li>
              ))}
            </ul>
          </div>
        ) : null}
        {answer.next_steps.length > 0 ? (
          <div className="answer-section" data-testid="next-steps">
            <h4 className="section-label">{t('answer.nextSteps')}</h4>
            <ul>
              {answer.next_steps.map((l, i) => (
                <li key={i}>{l}</li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
      {answer.suggested_questions.length > 0 ? (
        <div className="answer-section">
          <h4 className="section-label">{t('answer.suggested')}</h4>
          <div className="chips">
            {answer.suggested_questions.map((q, i) => (
              <button
                key={i}
                type="button"
                className="chip"
                disabled={!canAsk}
                data-testid="suggested-question"
                onClick={() => void ask(q, choice)}
              >
                {q}
              </button>
            ))}
          </div>
        </div>
      ) : null}
    </section>
  );
}
