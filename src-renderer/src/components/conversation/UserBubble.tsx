import type { ReactNode } from 'react';
import { useT } from '../../i18n/useT';

/** The user's turn: queued (waits for the current run), replaced by a later attempt, or with its actions (Edit). */
export function UserBubble({ text, queued, superseded, actions }: { text: string; queued?: boolean; superseded?: boolean; actions?: ReactNode }) {
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
        <p className="queued-note muted small">
          <span className="dot dot-warn" aria-hidden="true" /> {t('conv.queued')}
        </p>
      ) : null}
    </article>
  );
}
