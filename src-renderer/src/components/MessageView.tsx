import { memo, type ReactNode } from 'react';
import type { DataUIPart, ReasoningUIPart, UIMessage, UIPart } from '../../../src-preload/contract';
import type { ApprovalEventData, HostCallEventData } from '../../../src-preload/contract/approvals';
import { useT } from '../i18n/useT';
import { AnswerCard, asAnswer } from './parts/AnswerCard';
import { asCellData, CellCard } from './parts/CellCard';
import {
  ApprovalLine,
  ErrorPart,
  HostCallLine,
  RecordChip,
  ThinkingSteps,
  UnknownData,
} from './parts/DataParts';
import { isRecord } from './parts/format';
import { Markdown } from './parts/Markdown';
import { RunFooter } from './RunFooter';
import { ToolCard, type AnyToolPart } from './parts/ToolCard';

function isTool(p: UIPart): p is AnyToolPart {
  return p.type === 'dynamic-tool' || (p.type.startsWith('tool-') && 'toolCallId' in p);
}

export function UserBubble({ text, queued }: { text: string; queued?: boolean }) {
  const t = useT();
  return (
    <article
      className={`msg msg-user${queued ? ' queued' : ''}`}
      data-testid={queued ? 'queued-message' : 'user-message'}
    >
      <div className="bubble">
        <p className="bubble-text">{text}</p>
      </div>
      {queued ? (
        <p className="queued-note muted small">
          <span className="dot dot-warn" aria-hidden="true" /> {t('conv.queued')}
        </p>
      ) : null}
    </article>
  );
}

function Reasoning({ part }: { part: ReasoningUIPart }) {
  const t = useT();
  const streaming = part.state === 'streaming';
  return (
    <details className="reasoning" data-testid="reasoning" open={streaming || undefined}>
      <summary>
        {streaming ? (
          <span className="spinner spinner-sm" aria-hidden="true" />
        ) : (
          <span aria-hidden="true">◌</span>
        )}
        {streaming ? t('conv.reasoningStreaming') : t('conv.reasoning')}
      </summary>
      <div className="reasoning-text">{part.text}</div>
    </details>
  );
}

/** Host calls and approvals keyed by the tool call they belong to, so the tool card shows them. */
function toolAnnotations(parts: readonly UIPart[]) {
  const hostCalls = new Map<string, HostCallEventData>();
  const denied = new Set<string>();
  for (const p of parts) {
    const data = (p as DataUIPart).data;
    if (p.type === 'data-host-call' && isRecord(data) && typeof data.toolCallId === 'string')
      hostCalls.set(data.toolCallId, data as unknown as HostCallEventData);
    if (
      p.type === 'data-approval' &&
      isRecord(data) &&
      typeof data.toolCallId === 'string' &&
      data.state === 'denied'
    )
      denied.add(data.toolCallId);
  }
  return { hostCalls, denied };
}

/**
 * One assistant message (one run): its parts in stream order. Consecutive
 * thinking steps form one checklist; host calls and approvals of a tool call are shown
 * in that tool's card.
 */
export const AssistantMessage = memo(function AssistantMessage({
  message,
  sessionId,
  live,
  canAsk,
}: {
  message: UIMessage;
  sessionId: string;
  live: boolean;
  canAsk: boolean;
}) {
  const t = useT();
  const { hostCalls, denied } = toolAnnotations(message.parts);
  const out: ReactNode[] = [];
  let steps: DataUIPart[] = [];
  const flushSteps = (key: string) => {
    if (steps.length) out.push(<ThinkingSteps key={`steps-${key}`} steps={steps} />);
    steps = [];
  };
  message.parts.forEach((part, i) => {
    if (part.type === 'data-thinking-step') {
      steps.push(part as DataUIPart);
      return;
    }
    flushSteps(String(i));
    const key = `p${i}`;
    if (part.type === 'text') {
      if (part.text.trim()) out.push(<Markdown key={key} text={part.text} />);
    } else if (part.type === 'reasoning') {
      if (part.text.trim()) out.push(<Reasoning key={key} part={part} />);
    } else if (isTool(part)) {
      // A valid finalize is the answer card below; a rejected one stays visible as a tool error.
      if (part.type === 'tool-finalize_response' && part.state === 'output-available') return;
      out.push(
        <ToolCard
          key={key}
          part={part}
          hostCall={hostCalls.get(part.toolCallId)}
          denied={denied.has(part.toolCallId)}
        />,
      );
    } else if (part.type === 'source-url') {
      out.push(
        <a
          key={key}
          className="source-link"
          href={part.url}
          target="_blank"
          rel="noreferrer noopener"
        >
          {part.title ?? part.url}
        </a>,
      );
    } else if (part.type.startsWith('data-')) {
      const p = part as DataUIPart;
      const data = p.data;
      if (p.type === 'data-cell') {
        const cell = asCellData(data);
        if (cell) out.push(<CellCard key={key} cell={cell} sessionId={sessionId} />);
      } else if (p.type === 'data-answer') {
        const answer = asAnswer(data);
        if (answer) out.push(<AnswerCard key={key} answer={answer} canAsk={canAsk} />);
      } else if (p.type === 'data-error') out.push(<ErrorPart key={key} data={data} />);
      else if (p.type === 'data-approval' && isRecord(data)) {
        if (!(
          typeof data.toolCallId === 'string' &&
          message.parts.some((x) => isTool(x) && x.toolCallId === data.toolCallId)
        ))
          out.push(<ApprovalLine key={key} data={data as unknown as ApprovalEventData} />);
      } else if (p.type === 'data-host-call' && isRecord(data)) {
        if (typeof data.toolCallId !== 'string')
          out.push(<HostCallLine key={key} data={data as unknown as HostCallEventData} />);
      } else if (p.type === 'data-evidence' || p.type === 'data-artifact')
        out.push(<RecordChip key={key} part={p} />);
      else out.push(<UnknownData key={key} part={p} />);
    }
  });
  flushSteps('end');
  return (
    <article
      className="msg msg-assistant"
      data-testid="assistant-message"
      data-message-id={message.id}
    >
      <div className="msg-avatar" aria-hidden="true">
        4S
      </div>
      <div className="msg-body">
        <div className="msg-name">{t('conv.assistant')}</div>
        {out}
        {live ? (
          <div className="working" role="status">
            <span className="spinner spinner-sm" aria-hidden="true" /> {t('conv.thinking')}
          </div>
        ) : null}
        <RunFooter metadata={message.metadata} />
      </div>
    </article>
  );
});

export function MessageView(props: {
  message: UIMessage;
  sessionId: string;
  live: boolean;
  canAsk: boolean;
}) {
  if (props.message.role === 'user') {
    const text = props.message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
    return <UserBubble text={text} />;
  }
  return <AssistantMessage {...props} />;
}
