import type { DynamicToolUIPart, ToolUIPart } from '../../../../src-preload/contract';
import type { ApprovalEventData, HostCallEventData } from '../../../../src-preload/contract/approvals';
import type { ThinkingStepData } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import type { MessageKey } from '../../i18n/messages';
import { preview } from './format';
import { DenialNote, deniedBy } from './ApprovalCard';
import { stepElapsedMs } from '../plan/stepTree';
import { formatElapsed, formatSecondsShort } from './durationText';
import { useNow } from '../plan/ThinkingSteps';
import { toolSummary } from './toolSummary';
import { toolErrorHeadline } from './toolErrorText';
import { Markdown } from './Markdown';
import { Icon } from '../icons';

/** A tool output that carries readable text (the Science Navigator's answer): shown as Markdown. */
function outputText(output: unknown): string | null {
  const text = output && typeof output === 'object' ? (output as { text?: unknown }).text : undefined;
  return typeof text === 'string' && text.trim() ? text : null;
}

export type AnyToolPart = ToolUIPart | DynamicToolUIPart;

export function toolNameOf(part: AnyToolPart): string {
  return part.type === 'dynamic-tool' ? part.toolName : part.type.slice('tool-'.length);
}

const TONE: Record<AnyToolPart['state'], string> = {
  'input-streaming': 'neutral',
  'input-available': 'running',
  'approval-requested': 'warn',
  'output-available': 'ok',
  'output-error': 'bad',
  'output-denied': 'bad',
};

/**
 * How long the call took, without the time it waited for an approval: the host's report
 * once it ended; while it runs, the time since its activity step started (ticking).
 */
function Duration({ hostCall, step, running }: { hostCall?: HostCallEventData; step?: ThinkingStepData; running: boolean }) {
  const t = useT();
  const now = useNow(running && step !== undefined);
  if (hostCall) {
    const waited = hostCall.approvalWaitMs ?? 0;
    return (
      <span className="muted tool-duration" data-testid="tool-duration" title={waited ? t('tool.waited', { time: formatElapsed(waited, t) }) : undefined}>
        {t('tool.took', { time: formatSecondsShort(hostCall.durationMs - waited, t) })}
      </span>
    );
  }
  const ms = running && step ? stepElapsedMs(step, now) : null;
  return ms === null ? null : (
    <span className="muted tool-duration mono" aria-hidden="true" data-testid="tool-elapsed">
      {formatElapsed(ms, t)}
    </span>
  );
}

/**
 * One tool call: its name and what it asked (database and query, URL, path) on the collapsed
 * line, its state and duration (approval waits not counted), input (the raw text when it did
 * not parse), output preview or error, and for a denied call who denied it and how to change that.
 */
export function ToolCard({
  part,
  hostCall,
  approval,
  step,
}: {
  part: AnyToolPart;
  hostCall?: HostCallEventData;
  /** The call's approval question, as last answered (or still asked). */
  approval?: ApprovalEventData;
  /** The call's activity step (its start time makes the running card's clock). */
  step?: ThinkingStepData;
}) {
  const t = useT();
  const name = toolNameOf(part);
  const denied = approval?.state === 'denied' || approval?.state === 'expired';
  const settled = denied && part.state !== 'output-available' ? 'output-denied' : part.state;
  // A preliminary output (a tool streaming its answer) is shown while the call still runs.
  const streaming = settled === 'output-available' && part.preliminary === true;
  const state = streaming ? 'input-available' : settled;
  const running = state === 'input-streaming' || state === 'input-available';
  const text = settled === 'output-available' ? outputText(part.output) : null;
  const hasInput = part.input !== undefined && part.input !== null;
  const asked = hasInput ? toolSummary(name, part.input) : null;
  // The case main named, in the window's language; main's English words stay below it.
  const errorHeadline = state === 'output-error' ? toolErrorHeadline(t, part.errorCode, name) : null;
  return (
    <details
      className={`tool-card tone-${TONE[state]}`}
      data-testid="tool-card"
      data-tool={name}
      data-state={state}
      open={state === 'output-error' || state === 'output-denied' || streaming || undefined}
      data-streaming={streaming || undefined}
    >
      <summary>
        <span className="tool-icon" aria-hidden="true">
          {running ? <span className="spinner" /> : <Icon name="tool" size={14} />}
        </span>
        <span className="tool-name mono">{part.title ?? name}</span>
        {asked ? (
          <span className="tool-asked" title={asked} data-testid="tool-asked">
            {asked}
          </span>
        ) : null}
        <span className={`pill pill-${TONE[state] === 'running' ? 'neutral' : TONE[state]}`}>
          {t(`tool.state.${state}` as MessageKey)}
        </span>
        <Duration hostCall={hostCall} step={step} running={running} />
      </summary>
      <div className="tool-body">
        {hasInput || part.rawInput ? (
          <section>
            <h4 className="section-label">{t('tool.input')}</h4>
            {part.errorText && part.rawInput && state !== 'output-error' ? (
              <p className="muted">{t('tool.rawInput')}</p>
            ) : null}
            <pre className="code-block">{hasInput ? preview(part.input) : part.rawInput}</pre>
          </section>
        ) : null}
        {text ? (
          <section data-testid="tool-output-text">
            <h4 className="section-label">{t('tool.output')}</h4>
            <Markdown text={text} />
          </section>
        ) : null}
        {state === 'output-available' ? (
          <section>
            {text ? null : <h4 className="section-label">{t('tool.output')}</h4>}
            <pre className="code-block" data-testid="tool-output">
              {preview(part.output)}
            </pre>
          </section>
        ) : null}
        {state === 'output-error' && part.errorText ? (
          <section>
            <h4 className="section-label">{t('tool.error')}</h4>
            {errorHeadline ? (
              <p className="error-text" data-testid="tool-error-headline">
                {errorHeadline}
              </p>
            ) : null}
            <pre className="code-block error-text" data-testid="tool-error">
              {part.errorText}
            </pre>
          </section>
        ) : null}
        {state === 'output-denied' ? <DenialNote by={deniedBy(approval, hostCall)} /> : null}
      </div>
    </details>
  );
}
