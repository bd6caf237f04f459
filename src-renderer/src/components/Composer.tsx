import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { useT } from '../i18n/useT';
import { useAppStore } from '../store/context';
import { useShallow } from 'zustand/react/shallow';
import { agentWorking, queuedRuns } from '../store/conversationReducer';
import { modelChoice } from '../store/settingsSlice';
import { DelegationSwitch } from './composer/DelegationSwitch';
import { withAttachments } from '../store/workspaceSlice';
import { AttachButton, AttachmentChips } from './Attachments';
import { ProviderPicker } from './composer/ProviderPicker';
import { targetProvider } from '../store/readiness';
import { SkillChips } from './composer/SkillChips';
import { SkillPicker } from './composer/SkillPicker';
import { useSkillPicker } from './composer/useSkillPicker';
import { Icon } from './icons';

/**
 * The message box. Enter sends (Shift+Enter is a new line; never while an IME is
 * composing), Esc stops the current run. While a run is active a message is queued,
 * not refused. The provider picker shows each provider's readiness; sending to one that
 * is not ready opens its setup instead.
 */
export function Composer({ autoFocus }: { autoFocus?: boolean }) {
  const t = useT();
  const draft = useAppStore((s) => s.draft);
  const setDraft = useAppStore((s) => s.setDraft);
  const ask = useAppStore((s) => s.ask);
  const stop = useAppStore((s) => s.stopRun);
  const running = useAppStore((s) => agentWorking(s.conversation));
  const queued = useAppStore((s) => (s.conversation ? queuedRuns(s.conversation).length : 0));
  const provider = useAppStore((s) => s.provider);
  const model = useAppStore((s) => s.model);
  const setModelChoice = useAppStore((s) => s.setModelChoice);
  const providerView = useAppStore((s) => s.providers.data);
  const choice = useAppStore(useShallow(modelChoice));
  const delegationAllowed = useAppStore((s) => s.delegationAllowed);
  const defaults = useAppStore((s) => s.settings.data?.settings);
  const ref = useRef<HTMLTextAreaElement>(null);
  const attach = useAppStore((s) => s.attachFiles);
  const takeAttachments = useAppStore((s) => s.takeAttachments);
  const attachState = useAppStore((s) => {
    const mine = s.attachments.sessionId === (s.conversation?.sessionId ?? null);
    const items = mine ? s.attachments.items : [];
    if (items.some((a) => a.status === 'uploading')) return 'uploading';
    return items.some((a) => a.status === 'ready') ? 'ready' : 'none';
  });
  const [dragging, setDragging] = useState(false);
  const picker = useSkillPicker(ref, draft, setDraft);

  useEffect(() => {
    if (autoFocus) ref.current?.focus();
  }, [autoFocus]);
  // The box grows with its text and shrinks back when sent: CSS (field-sizing), see workbench.css.

  const chosen = targetProvider(providerView, provider ?? defaults?.defaultProvider ?? null);

  const canSend = attachState !== 'uploading' && (draft.trim() !== '' || attachState === 'ready');
  const submit = async () => {
    if (!canSend) return;
    const text = draft.trim();
    // The model reads the attached files' workspace paths from the message itself.
    const message = withAttachments(text, takeAttachments());
    setDraft('');
    // A provider that is not ready opens its setup instead of a run that can only fail; the message waits there.
    const outcome = await ask(message, delegationAllowed ? choice : { ...choice, delegation: false }, true);
    if (outcome !== 'sent') setDraft(message);
  };

  const hasFiles = (e: DragEvent) => [...e.dataTransfer.types].includes('Files');
  const onDrop = (e: DragEvent<HTMLFormElement>) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    setDragging(false);
    void attach([...e.dataTransfer.files]);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (picker.onKeyDown(e)) return;
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    } else if (e.key === 'Escape' && running) {
      e.preventDefault();
      void stop();
    }
  };

  return (
    <form
      className={`composer${dragging ? ' dragging' : ''}`}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      onDragOver={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        if (!dragging) setDragging(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
      data-testid="composer"
    >
      {dragging ? (
        <div className="drop-hint" aria-hidden="true">
          {t('composer.attachDrop')}
        </div>
      ) : null}
      <AttachmentChips />
      <SkillChips text={draft} setText={setDraft} />
      <SkillPicker picker={picker} />
      <textarea
        ref={ref}
        value={draft}
        onChange={(e) => {
          setDraft(e.target.value);
          picker.track(e.target);
        }}
        onSelect={(e) => picker.track(e.currentTarget)}
        onKeyDown={onKeyDown}
        aria-controls={picker.open && picker.options.length ? picker.listId : undefined}
        aria-activedescendant={
          picker.open && picker.options.length ? picker.optionId(picker.active) : undefined
        }
        placeholder={running ? t('composer.placeholderRunning') : t('composer.placeholder')}
        aria-label={t('composer.label')}
        rows={2}
        aria-keyshortcuts="Shift+Escape"
        data-testid="composer-input"
      />
      <div className="composer-bar">
        <div className="composer-pickers">
          <AttachButton />
          <ProviderPicker />
          <label className="picker">
            <span className="sr-only">{t('composer.model')}</span>
            <input
              value={model ?? ''}
              onChange={(e) => setModelChoice(provider, e.target.value)}
              placeholder={
                (!provider && defaults?.defaultModel) ||
                (chosen ? chosen.model : t('composer.defaultModel'))
              }
              aria-label={t('composer.model')}
              list="model-suggestions"
              spellCheck={false}
              data-testid="model-picker"
            />
            <datalist id="model-suggestions">
              {chosen ? <option value={chosen.model} /> : null}
            </datalist>
          </label>
          <DelegationSwitch />
          {running ? (
            <span className="muted small composer-hint" role="status">
              {queued ? t('composer.hintQueued', { count: queued }) : t('composer.hintRunning')}
            </span>
          ) : null}
        </div>
        <div className="composer-actions">
          {running ? (
            <button
              type="button"
              className="btn btn-stop"
              onClick={() => void stop()}
              data-testid="stop-button"
            >
              <Icon name="stop" size={14} /> {t('composer.stop')}
            </button>
          ) : null}
          <button
            type="submit"
            className="btn btn-primary"
            disabled={!canSend}
            data-testid="send-button"
          >
            {running ? t('composer.queue') : t('composer.send')}
          </button>
        </div>
      </div>
    </form>
  );
}
