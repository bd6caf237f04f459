import { useEffect, useState } from 'react';
import type { ErrorBody, MemoryScope } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import '../../styles/memory.css';
import { MemoryItem } from './MemoryItem';
import { envelopeErrorText } from '../../errors/envelopeText';

/**
 * What the agent remembers for this session and for every session of the data root: the
 * user reads, adds, edits and deletes memories here (the agent's own are marked). Reloaded
 * when the session changes and when a run ends (the agent may have remembered something).
 */
export function MemoryTab() {
  const t = useT();
  const sessionId = useAppStore((s) => s.conversation?.sessionId ?? null);
  const running = useAppStore((s) => s.conversation?.fold.open ?? false);
  const memories = useAppStore((s) => s.memories);
  const load = useAppStore((s) => s.loadMemories);
  const add = useAppStore((s) => s.addMemory);
  const [draft, setDraft] = useState('');
  const [scope, setScope] = useState<MemoryScope>(sessionId ? 'session' : 'data_root');
  const [problem, setProblem] = useState<ErrorBody | null>(null);
  useEffect(() => {
    if (!running) void load(sessionId);
  }, [sessionId, running, load]);
  const submit = async () => {
    if (!draft.trim()) return;
    const error = await add(sessionId, draft, sessionId ? scope : 'data_root');
    setProblem(error);
    if (!error) setDraft('');
  };
  const shown = memories.sessionId === sessionId ? memories.data : [];
  return (
    <div className="memory-tab" data-testid="memory-tab">
      <p className="muted small">{t('memory.note')}</p>
      {memories.status === 'error' && memories.error ? (
        <div className="alert" role="alert">
          {envelopeErrorText(t, memories.error)}
        </div>
      ) : null}
      {shown.length ? (
        <ul className="memory-list" data-testid="memory-list">
          {shown.map((m) => (
            <MemoryItem key={m.id} memory={m} />
          ))}
        </ul>
      ) : (
        <p className="muted" data-testid="memory-empty">
          {memories.status === 'loading' ? t('memory.loading') : t('memory.empty')}
        </p>
      )}
      <form
        className="memory-add"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label className="memory-add-label">
          <span>{t('memory.addLabel')}</span>
          <textarea value={draft} rows={2} onChange={(e) => setDraft(e.target.value)} data-testid="memory-add-input" />
        </label>
        <div className="memory-add-row">
          {sessionId ? (
            <select value={scope} onChange={(e) => setScope(e.target.value as MemoryScope)} aria-label={t('memory.scopeLabel')} data-testid="memory-scope">
              <option value="session">{t('memory.scope.session')}</option>
              <option value="data_root">{t('memory.scope.data_root')}</option>
            </select>
          ) : null}
          <button type="submit" disabled={!draft.trim()} data-testid="memory-add">
            {t('memory.add')}
          </button>
        </div>
        {problem ? (
          <div className="alert" role="alert" data-testid="memory-add-error">
            {envelopeErrorText(t, problem)}
          </div>
        ) : null}
      </form>
    </div>
  );
}
