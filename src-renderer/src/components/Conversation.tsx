import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useT } from '../i18n/useT';
import { useAppStore } from '../store/context';
import { queuedRuns } from '../store/conversationReducer';
import { Composer } from './Composer';
import { ExportResultBar } from './ExportPanel';
import { ReplayBanner } from './ReplayBanner';
import { MessageView, UserBubble } from './MessageView';
import { Icon } from './icons';

/** How close to the bottom (px) still counts as "following" the stream. */
const FOLLOW_SLACK = 80;

/**
 * The open session: its messages folded from the ledger stream, queued messages as
 * queued bubbles, and the composer. A session opens at its end. While the user is at the
 * bottom the view follows the stream (also when content grows later: a figure loads, the
 * markdown renderer arrives); once they scroll up it stays where they are, with a "Jump to
 * latest" button; sending a message brings it into view.
 */
export function Conversation() {
  const t = useT();
  const conv = useAppStore((s) => s.conversation);
  const openSession = useAppStore((s) => s.openSession);
  const scroller = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const [atEnd, setAtEnd] = useState(true);

  const toEnd = (smooth = false) => {
    const el = scroller.current;
    if (!el) return;
    following.current = true;
    setAtEnd(true);
    el.scrollTo({ top: el.scrollHeight, behavior: smooth ? 'smooth' : 'auto' });
  };

  // A session opens at its end (also one opened again from the sidebar).
  const sessionId = conv?.sessionId;
  const ready = conv?.status === 'ready';
  useLayoutEffect(() => {
    if (ready) toEnd();
  }, [sessionId, ready]);

  // The user's own new message (sent, or queued) is always brought into view.
  const sentKey = conv
    ? `${conv.runs.length}:${conv.fold.messages.filter((m) => m.role === 'user').length}`
    : '';
  const sentRef = useRef(sentKey);
  useLayoutEffect(() => {
    if (sentRef.current !== sentKey && sentRef.current !== '') toEnd();
    sentRef.current = sentKey;
  }, [sentKey]);

  const messages = conv?.fold.messages;
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [messages, conv?.runs]);

  // Content that grows after it rendered (lazily rendered messages, figures, markdown) keeps a following view at the end.
  useEffect(() => {
    const el = scroller.current;
    const body = inner.current;
    if (!el || !body || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => {
      if (following.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(body);
    // The window (and so the scroller) shrinking keeps a following view at the end too.
    observer.observe(el);
    return () => observer.disconnect();
  }, [sessionId]);

  if (!conv) return null;
  const queued = queuedRuns(conv);
  const lastId = conv.fold.messages[conv.fold.messages.length - 1]?.id;

  return (
    <section className="conversation" aria-busy={conv.status === 'loading'}>
      <div className="conv-viewport">
        <div
          className="conv-scroll"
          ref={scroller}
          onScroll={(e) => {
            const el = e.currentTarget;
            following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_SLACK;
            setAtEnd(following.current);
          }}
          data-testid="conversation"
          data-at-end={atEnd}
        >
          {/* A log: what is added is announced; a message still streaming is busy until it ends. */}
          <div
            className="conv-inner"
            ref={inner}
            role="log"
            aria-live="polite"
            aria-relevant="additions"
            aria-label={t('conv.log')}
          >
            <ReplayBanner />
            {conv.status === 'loading' ? (
              <div className="loading" role="status">
                <span className="spinner" aria-hidden="true" />
                {t('conv.loading')}
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
              <UserBubble key={r.id} text={r.message} queued />
            ))}
          </div>
        </div>
        {!atEnd ? (
          <button
            type="button"
            className="btn jump-latest"
            onClick={() => toEnd(true)}
            data-testid="jump-latest"
          >
            <Icon name="chevronDown" size={14} /> {t('conv.jumpLatest')}
          </button>
        ) : null}
      </div>
      <div className="conv-composer">
        <ExportResultBar />
        <Composer autoFocus />
      </div>
    </section>
  );
}
