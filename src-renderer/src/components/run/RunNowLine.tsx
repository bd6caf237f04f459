import type { ThinkingStepData, UIMessage } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { isDataPart } from '../parts/dataPart';
import { currentStep, stepElapsedMs } from '../plan/stepTree';
import { useNow } from '../plan/ThinkingSteps';
import { stepTitle } from '../plan/stepTitle';
import type { MessageKey } from '../../i18n/messages';
import { formatElapsed } from '../parts/durationText';

/** What the live run is doing when no activity step runs: the model is thinking, writing, or not yet answering. */
function modelPhase(message: UIMessage): MessageKey {
  const last = message.parts[message.parts.length - 1];
  if (last?.type === 'reasoning' && last.state === 'streaming') return 'run.now.reasoning';
  if (last?.type === 'text' && last.state === 'streaming') return 'run.now.writing';
  return 'run.now.model';
}

/** When the run started: its record's start, else its first step's, else null (the line then shows no total). */
function runStart(startedAt: string | null | undefined, steps: ThinkingStepData[]): number | null {
  const first = startedAt ?? steps.find((s) => s.startedAt)?.startedAt;
  const ms = first ? Date.parse(first) : NaN;
  return Number.isNaN(ms) ? null : ms;
}

/**
 * The live run's status line, replacing a bare "Working…": the step running now in words
 * ("Searching UniProt for \"insulin human\"", "Python cell 3", "Waiting for your
 * approval", "Writing the answer") with how long it has run, and the run's total time.
 */
export function RunNowLine({ message }: { message: UIMessage }) {
  const t = useT();
  const startedAt = useAppStore((s) => s.conversation?.runs.find((r) => r.id === message.id)?.startedAt);
  const now = useNow(true);
  const steps: ThinkingStepData[] = [];
  for (const p of message.parts) if (isDataPart(p, 'thinking-step')) steps.push(p.data);
  const step = currentStep(steps.filter((s) => s.kind !== 'plan'));
  const stepMs = step ? stepElapsedMs(step, now) : null;
  const start = runStart(startedAt, steps);
  const waiting = step?.label?.key === 'approval';
  return (
    <div
      className={`run-now${waiting ? ' run-now-waiting' : ''}`}
      data-testid="run-now"
      data-step={step?.label?.key ?? (step ? 'step' : 'model')}
    >
      <span className="spinner spinner-sm" aria-hidden="true" />
      {/* Only the words are announced when they change; the ticking times would be noise. */}
      <span className="run-now-text" role="status" data-testid="run-now-text">
        {step ? stepTitle(step, t) : t(modelPhase(message))}
      </span>
      {stepMs !== null ? (
        <span className="run-now-time mono" aria-hidden="true" data-testid="run-now-step-time">
          {formatElapsed(stepMs, t)}
        </span>
      ) : null}
      {start !== null ? (
        <span className="run-now-total muted" aria-hidden="true" data-testid="run-now-total">
          {t('run.total', { time: formatElapsed(Math.max(0, now - start), t) })}
        </span>
      ) : null}
    </div>
  );
}
