import { useLayoutEffect, useRef } from 'react';
import { useT } from '../i18n/useT';
import { useAppStore } from '../store/context';
import { queuedRuns } from '../store/conversationReducer';
import { Composer } from './Composer';
import { ExportResultBar } from './ExportPanel';
import { ReplayBanner } from './ReplayBanner';
import { MessageView, UserBubble } from './MessageView';

/** How close to the bottom (px) still counts as "following" the stream. */
const FOLLOW_SLACK = 80;

/**
 * The open session: its messages folded from the ledger stream, queued messages as
 * queued bubbles, and the composer. While the user is at the bottom the view follows
 * the stream; once they scroll up it stays where they are (no jumping).
 */
export function Conversation() {
  const t = useT();
  const conv = useAppStore((s) => s.conversation);
  const openSession = useAppStore((s) => s.openSession);
  const scroller = useRef<HTMLDivElement>(null);
  const following = useRef(true);

  const messages = conv?.fold.messages;
  // Earlier messages put in front (a session opened at its end) must not move what the user reads.
  const above = useRef<{ first: string | undefined; height: number }>({ first: undefined, height: 0 });
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const first = messages?.[0]?.id;
    if (following.current) el.scrollTop = el.scrollHeight;
    else if (above.current.first !== undefined && first !== above.current.first) el.scrollTop += el.scrollHeight - above.current.height;
    above.current = { first, height: el.scrollHeight };
  }, [messages, conv?.runs]);

  if (!conv) return null;
  const queued = queuedRuns(conv);
  const lastId = conv.fold.messages[conv.fold.messages.length - 1]?.id;

  return (
    <section
      className="conversation"
      aria-label={t('sidebar.sessions')}
      aria-busy={conv.status === 'loading'}
    >
      <div
        className="conv-scroll"
        ref={scroller}
        onScroll={(e) => {
          const el = e.currentTarget;
          following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_SLACK;
        }}
        data-testid="conversation"
      >
        <div className="conv-inner">
          <ReplayBanner />
          {conv.status === 'loading' ? (
            <div className="loading" role="status">
              <span className="spinner" aria-hidden="true" />
              {t('conv.loading')}
            </div>
          ) : null}
          {conv.status === 'ready' && conv.earlierBefore !== null ? (
            <div className="loading" role="status" data-testid="loading-earlier">
              <span className="spinner" aria-hidden="true" />
              {t('conv.loadingEarlier')}
            </div>
          ) : null}
          {conv.status === 'error' ? (
            <div className="alert" role="alert">
              <div>
                <strong>{t('conv.loadFailed')}</strong>
                <p>{conv.error?.message}</p>
              </div>
              <button
                type="button"
                className="btn"
                onClick={() => void openSession(conv.sessionId)}
              >
                {t('conv.retry')}
              </button>
            </div>
          ) : null}
          {conv.status === 'ready' && conv.fold.messages.length === 0 && queued.length === 0 ? (
            <p className="conv-empty muted">{t('conv.empty')}</p>
          ) : null}
          {conv.fold.messages.map((m) => (
            <MessageView
              key={m.id}
              message={m}
              sessionId={conv.sessionId}
              live={conv.fold.open && m.id === lastId}
              canAsk
            />
          ))}
          {queued.map((r) => (
            <UserBubble key={r.id} text={r.message} queued waitingFor={conv.kernelWaits[r.id]} />
          ))}
        </div>
      </div>
      <div className="conv-composer">
        <ExportResultBar />
        <Composer autoFocus />
      </div>
    </section>
  );
}
