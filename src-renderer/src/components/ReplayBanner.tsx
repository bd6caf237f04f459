import { useT } from '../i18n/useT';
import { useAppStore } from '../store/context';
import { isReplaySession } from '../store/replay';

/** Says, at the top of a demo session, that its model replies and database answers are recordings. */
export function ReplayBanner() {
  const t = useT();
  const replay = useAppStore((s) =>
    s.conversation ? isReplaySession(s.conversation.runs, s.conversation.fold.messages) : false,
  );
  if (!replay) return null;
  return (
    <div className="replay-banner" role="note" data-testid="replay-banner">
      <span className="pill pill-warn">{t('replay.title')}</span>
      <span>{t('replay.body')}</span>
    </div>
  );
}
