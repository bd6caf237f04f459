import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useT } from '../i18n/useT';
import { useAppStore } from '../store/context';
import { useShallow } from 'zustand/react/shallow';
import { activeRun, queuedRuns } from '../store/conversationReducer';
import { modelChoice } from '../store/settingsSlice';

/**
 * The message box. Enter sends (Shift+Enter is a new line; never while an IME is
 * composing), Esc stops the current run. While a run is active a message is queued,
 * not refused. The provider/model picker lists the providers of the doctor report.
 */
export function Composer({ autoFocus }: { autoFocus?: boolean }) {
  const t = useT();
  const draft = useAppStore((s) => s.draft);
  const setDraft = useAppStore((s) => s.setDraft);
  const send = useAppStore((s) => s.sendMessage);
  const stop = useAppStore((s) => s.stopRun);
  const running = useAppStore((s) =>
    s.conversation ? activeRun(s.conversation) !== null || s.conversation.fold.open : false,
  );
  const queued = useAppStore((s) => (s.conversation ? queuedRuns(s.conversation).length : 0));
  const provider = useAppStore((s) => s.provider);
  const model = useAppStore((s) => s.model);
  const setModelChoice = useAppStore((s) => s.setModelChoice);
  const doctor = useAppStore((s) => s.doctor);
  const loadDoctor = useAppStore((s) => s.loadDoctor);
  const choice = useAppStore(useShallow(modelChoice));
  const defaults = useAppStore((s) => s.settings.view?.settings);
  const ref = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (doctor.status === 'idle') void loadDoctor();
  }, [doctor.status, loadDoctor]);
  useEffect(() => {
    if (autoFocus) ref.current?.focus();
  }, [autoFocus]);

  const providers = doctor.report?.providers ?? [];
  const effective = provider ?? defaults?.defaultProvider ?? null;
  const chosen = providers.find((p) => p.id === effective) ?? providers.find((p) => p.isDefault);

  const submit = async () => {
    const text = draft.trim();
    if (!text) return;
    setDraft('');
    const ok = await send(text, choice);
    if (!ok) setDraft(text);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
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
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <textarea
        ref={ref}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder={running ? t('composer.placeholderRunning') : t('composer.placeholder')}
        aria-label={t('composer.label')}
        rows={3}
        data-testid="composer-input"
      />
      <div className="composer-bar">
        <div className="composer-pickers">
          <label className="picker">
            <span className="sr-only">{t('composer.provider')}</span>
            <select
              value={chosen?.id ?? ''}
              onChange={(e) => setModelChoice(e.target.value || null, null)}
              aria-label={t('composer.provider')}
              data-testid="provider-picker"
            >
              {providers.length === 0 ? <option value="">{t('composer.provider')}</option> : null}
              {providers.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.label}
                  {p.configured ? '' : ` (${t('composer.notConfigured')})`}
                </option>
              ))}
            </select>
          </label>
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
              <span aria-hidden="true">■</span> {t('composer.stop')}
            </button>
          ) : null}
          <button
            type="submit"
            className="btn btn-primary"
            disabled={!draft.trim()}
            data-testid="send-button"
          >
            {running ? t('composer.queue') : t('composer.send')}
          </button>
        </div>
      </div>
    </form>
  );
}
