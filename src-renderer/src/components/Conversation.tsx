import { useT } from '../i18n/useT';
import { useAppStore } from '../store/context';
import { queuedRuns } from '../store/conversationReducer';
import { Composer } from './Composer';
import { ExportResultBar } from './ExportPanel';
import { ReplayBanner } from './ReplayBanner';
import { MessageView, UserBubble } from './MessageView';
import { Icon } from './icons';
import { useFollowScroll } from './layout/useFollowScroll';
import { envelopeErrorText } from '../errors/envelopeText';

/**
 * The open session: its messages folded from the ledger stream, queued messages as
 * queued bubbles, and the composer. A session opens at its end. While the user is at the
 * bottom the view follows the stream (also when content grows later: a figure loads, the
 * markdown renderer arrives); once they scroll up it stays where they are, with a "Jump to
 * latest" button; sending a message brings it into view (useFollowScroll).
 */
export function Conversation() {
  const t = useT();
  const conv = useAppStore((s) => s.conversation);
  const openSession = useAppStore((s) => s.openSession);
  // A message sent (a new run, or a new question at the end) changes this; earlier messages
  // put in front when a session opened at its end loads its history do not.
  const lastQuestion = conv?.fold.messages.findLast((m) => m.role === 'user')?.id ?? '';
  const sentKey = conv ? `${conv.runs.length}:${lastQuestion}` : '';
  const { scroller, inner, atEnd, toEnd, handlers } = useFollowScroll(
    conv?.sessionId,
    conv?.status === 'ready',
    sentKey,
    conv?.fold.messages,
  );

  if (!conv) return null;
  const queued = queuedRuns(conv);
  const lastId = conv.fold.messages[conv.fold.messages.length - 1]?.id;

  return (
    <section
      className="conversation"
      aria-busy={conv.status === 'loading'}
    >
      <div
        className="conv-scroll"
        ref={scroller}
        {...handlers}
        data-testid="conversation"
        data-at-end={atEnd}
      >
        {/* A log: what is added is announced; a message still streaming is busy until it ends. */}
        <div className="conv-inner" ref={inner} role="log" aria-live="polite" aria-relevant="additions" aria-label={t('conv.log')}>
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
                <p>{envelopeErrorText(t, conv.error)}</p>
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
        {!atEnd ? (
          <button type="button" className="btn jump-latest" onClick={() => toEnd(true)} data-testid="jump-latest">
            <Icon name="chevronDown" size={14} /> {t('conv.jumpLatest')}
          </button>
        ) : null}
        <ExportResultBar />
        <Composer autoFocus />
      </div>
    </section>
  );
}
