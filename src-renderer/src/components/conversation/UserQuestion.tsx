import '../../styles/failure.css';
import { useState, type KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useT } from '../../i18n/useT';
import { branchInfo } from '../../store/branchView';
import { useAppStore } from '../../store/context';
import { UserBubble } from './UserBubble';

/**
 * The user's question with Edit: the edited text is sent as a new run that replaces the
 * old one (the old question and its answer stay, marked as replaced). Ctrl/Cmd+Enter
 * sends, Esc cancels.
 */
export function UserQuestion({ text, messageId }: { text: string; messageId: string }) {
  const t = useT();
  const info = useAppStore(useShallow((s) => branchInfo(s, messageId)));
  const resend = useAppStore((s) => s.resendEdited);
  const [draft, setDraft] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (draft === null) {
    const canEdit = info.idle && !info.superseded;
    return (
      <UserBubble
        text={text}
        superseded={info.superseded}
        actions={
          canEdit ? (
            <button type="button" className="link small" onClick={() => setDraft(text)} data-testid="edit-question">
              {t('run.edit')}
            </button>
          ) : null
        }
      />
    );
  }
  const send = async () => {
    if (!draft.trim() || busy) return;
    setBusy(true);
    const outcome = await resend(info.runId, draft);
    setBusy(false);
    if (outcome !== 'failed') setDraft(null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void send();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      setDraft(null);
    }
  };
  return (
    <article className="msg msg-user editing" data-testid="question-editor">
      <form
        className="question-editor"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <textarea value={draft} onChange={(e) => setDraft(e.target.value)} onKeyDown={onKeyDown} aria-label={t('run.editLabel')} rows={Math.min(8, draft.split('\n').length + 1)} autoFocus />
        <div className="question-editor-actions">
          <button type="button" className="btn" onClick={() => setDraft(null)}>
            {t('run.editCancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy || !draft.trim()} data-testid="edit-send">
            {t('run.editSend')}
          </button>
        </div>
      </form>
    </article>
  );
}
