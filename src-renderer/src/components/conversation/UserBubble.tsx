import type { ReactNode } from 'react';
import { useT } from '../../i18n/useT';
import type { KernelHolderKind } from '../../store/conversationReducer';

/**
 * The user's turn: queued (waits for the current run, or for the kernel: `waitingFor` names
 * who holds it), replaced by a later attempt, or with its actions (Edit).
 */
export function UserBubble({ text, queued, waitingFor, superseded, actions }: { text: string; queued?: boolean; waitingFor?: KernelHolderKind | undefined; superseded?: boolean; actions?: ReactNode }) {
  const t = useT();
  return (
    <article
      className={`msg msg-user${queued ? ' queued' : ''}${superseded ? ' superseded' : ''}`}
      data-testid={queued ? 'queued-message' : 'user-message'}
      data-superseded={superseded || undefined}
    >
      <div className="bubble">
        <p className="bubble-text">{text}</p>
      </div>
      {actions ? <div className="msg-actions">{actions}</div> : null}
      {queued ? (
        <p className="queued-note muted small" data-testid="queued-note">
          <span className="dot dot-warn" aria-hidden="true" /> {waitingFor ? t('conv.waitingForKernel', { holder: t(`conv.kernelHolder.${waitingFor}`) }) : t('conv.queued')}
        </p>
      ) : null}
    </article>
  );
}
