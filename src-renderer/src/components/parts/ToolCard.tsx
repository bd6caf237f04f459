import type { DynamicToolUIPart, ToolUIPart } from '../../../../src-preload/contract';
import type { HostCallEventData } from '../../../../src-preload/contract/approvals';
import { useT } from '../../i18n/useT';
import type { MessageKey } from '../../i18n/messages';
import { formatSeconds, preview } from './format';
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
 * One tool call: its name, state, input (the raw text when it did not parse), output
 * preview or error, and its duration when the host dispatcher reported one.
 */
export function ToolCard({
  part,
  hostCall,
  denied,
}: {
  part: AnyToolPart;
  hostCall?: HostCallEventData;
  denied?: boolean;
}) {
  const t = useT();
  const name = toolNameOf(part);
  const settled = denied && part.state !== 'output-available' ? 'output-denied' : part.state;
  // A preliminary output (a tool streaming its answer) is shown while the call still runs.
  const streaming = settled === 'output-available' && part.preliminary === true;
  const state = streaming ? 'input-available' : settled;
  const running = state === 'input-streaming' || state === 'input-available';
  const text = settled === 'output-available' ? outputText(part.output) : null;
  const hasInput = part.input !== undefined && part.input !== null;
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
        <span className={`pill pill-${TONE[state] === 'running' ? 'neutral' : TONE[state]}`}>
          {t(`tool.state.${state}` as MessageKey)}
        </span>
        {hostCall ? (
          <span className="muted tool-duration">
            {t('tool.duration', { seconds: formatSeconds(hostCall.durationMs) })}
          </span>
        ) : null}
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
            <pre className="code-block error-text" data-testid="tool-error">
              {part.errorText}
            </pre>
          </section>
        ) : null}
        {state === 'output-denied' ? (
          <p className="denied" data-testid="tool-denied">
            {t('tool.denied')}
          </p>
        ) : null}
      </div>
    </details>
  );
}
