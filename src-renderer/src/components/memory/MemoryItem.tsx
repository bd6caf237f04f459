import { useState } from 'react';
import type { ErrorBody, MemoryRecord } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { envelopeErrorText } from '../../errors/envelopeText';
import { useAppStore } from '../../store/context';
import { Pill } from '../ui';

/** One memory: its text, whose it is (the agent's are marked), its scope; edit and delete in place. */
export function MemoryItem({ memory }: { memory: MemoryRecord }) {
  const t = useT();
  const edit = useAppStore((s) => s.editMemory);
  const forget = useAppStore((s) => s.forgetMemory);
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<ErrorBody | null>(null);
  const [busy, setBusy] = useState(false);
  const act = async (run: () => Promise<ErrorBody | null>, after?: () => void) => {
    setBusy(true);
    const error = await run();
    setBusy(false);
    setProblem(error);
    if (!error) after?.();
  };
  return (
    <li className="memory-item" data-testid="memory-item" data-memory-id={memory.id} data-origin={memory.origin}>
      {draft === null ? (
        <p className="memory-text">{memory.text}</p>
      ) : (
        <textarea
          className="memory-edit"
          value={draft}
          aria-label={t('memory.editLabel')}
          onChange={(e) => setDraft(e.target.value)}
          data-testid="memory-edit-input"
          rows={3}
        />
      )}
      <div className="memory-meta">
        <Pill tone={memory.origin === 'agent' ? 'warn' : 'neutral'} testId="memory-origin">
          {t(memory.origin === 'agent' ? 'memory.origin.agent' : 'memory.origin.user')}
        </Pill>
        <span className="muted small">{t(memory.scope === 'session' ? 'memory.scope.session' : 'memory.scope.data_root')}</span>
        {memory.editedBy ? <span className="muted small">{t('memory.edited')}</span> : null}
        <span className="grow" />
        {draft === null ? (
          <>
            <button type="button" className="link" onClick={() => setDraft(memory.text)} data-testid="memory-edit">
              {t('memory.edit')}
            </button>
            <button type="button" className="link tone-bad" disabled={busy} onClick={() => void act(() => forget(memory.id))} data-testid="memory-delete">
              {t('memory.delete')}
            </button>
          </>
        ) : (
          <>
            <button type="button" className="link" disabled={busy || !draft.trim()} onClick={() => void act(() => edit(memory.id, draft), () => setDraft(null))} data-testid="memory-save">
              {t('memory.save')}
            </button>
            <button type="button" className="link" onClick={() => (setDraft(null), setProblem(null))}>
              {t('memory.cancel')}
            </button>
          </>
        )}
      </div>
      {problem ? (
        <div className="alert" role="alert">
          {envelopeErrorText(t, problem)}
        </div>
      ) : null}
    </li>
  );
}
