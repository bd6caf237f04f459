import type { CellData, KernelCellResult, KernelLanguage } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { CellCard } from '../parts/CellCard';
import '../../styles/codeRunner.css';

const LANGUAGES: readonly KernelLanguage[] = ['python', 'r'];

/** A finished `kernel.execute` as the cell card shows it (text only: the card never injects HTML). */
export function cellOfResult(code: string, result: KernelCellResult): CellData {
  return {
    language: result.language,
    code,
    status: result.status,
    generation: result.generation,
    cellNumber: result.cellNumber,
    stdout: result.stdout,
    stderr: result.stderr,
    displays: result.displays,
    error: result.error ?? null,
    usage: result.usage ?? null,
    truncated: result.truncated,
    sandbox: result.sandbox,
    died: result.died ?? null,
    ...(result.timeLimit ? { timeLimit: result.timeLimit } : {}),
  };
}

/** The user's own cell in the open session's kernel: language, code, Run (Ctrl/⌘+Enter), Interrupt, result. */
export function CodeRunner({ sessionId }: { sessionId: string }) {
  const t = useT();
  const run = useAppStore((s) => s.codeRun);
  const setDraft = useAppStore((s) => s.setCodeDraft);
  const runCode = useAppStore((s) => s.runCode);
  const interrupt = useAppStore((s) => s.interruptCode);
  const interrupting = useAppStore((s) => s.kernelActions[s.codeRun.language] === 'interrupt');
  const running = run.status === 'running';
  // A run of another session is not this session's output.
  const mine = run.sessionId === sessionId;

  return (
    <form
      className="code-runner"
      aria-label={t('codeRunner.title')}
      data-testid="code-runner"
      data-status={mine ? run.status : 'idle'}
      onSubmit={(e) => {
        e.preventDefault();
        void runCode(sessionId);
      }}
    >
      <div className="code-runner-bar">
        <strong className="small">{t('codeRunner.title')}</strong>
        <select
          aria-label={t('codeRunner.language')}
          value={run.language}
          disabled={running}
          onChange={(e) => setDraft({ language: e.target.value as KernelLanguage })}
        >
          {LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {t(`kernel.language.${l}`)}
            </option>
          ))}
        </select>
        <span className="grow" />
        {running && mine ? (
          <>
            <span className="small muted" role="status" data-testid="code-runner-running">
              <span className="spinner spinner-sm" aria-hidden="true" /> {t('codeRunner.running')}
            </span>
            <button
              type="button"
              className="btn btn-ghost"
              disabled={interrupting}
              onClick={() => void interrupt()}
            >
              {t('kernel.interrupt')}
            </button>
          </>
        ) : null}
        <button
          type="submit"
          className="btn btn-primary"
          disabled={running || !run.code.trim()}
          title={t('codeRunner.runHint')}
        >
          {t('codeRunner.run')}
        </button>
      </div>
      <textarea
        className="code-runner-input mono"
        data-testid="code-runner-input"
        aria-label={t('codeRunner.code')}
        placeholder={t('codeRunner.placeholder')}
        spellCheck={false}
        rows={4}
        value={run.code}
        onChange={(e) => setDraft({ code: e.target.value })}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void runCode(sessionId);
          }
        }}
      />
      {mine && run.status === 'error' && run.error ? (
        <p className="small error-text" role="alert" data-testid="code-runner-error">
          {run.error}
        </p>
      ) : null}
      {mine && run.result ? (
        <div className="code-runner-result" data-testid="code-runner-result">
          <CellCard cell={cellOfResult(run.result.code, run.result.result)} sessionId={sessionId} />
        </div>
      ) : null}
    </form>
  );
}
