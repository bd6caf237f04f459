import { memo, type ReactNode } from 'react';
import type {
  ApprovalEventData,
  ChildData,
  DataUIPart,
  HostCallEventData,
  KnownDataUIPart,
  ReasoningUIPart,
  ThinkingStepData,
  UIMessage,
  UIPart,
} from '../../../src-preload/contract';
import { useT } from '../i18n/useT';
import { AnswerCard } from './parts/AnswerCard';
import { CellCard } from './parts/CellCard';
import { CompactionDivider } from './parts/CompactionDivider';
import { JobStep } from './compute/JobStep';
import { ApprovalCard } from './parts/ApprovalCard';
import { cellCodesOf, withoutCellFences } from './parts/cellFences';
import { RunNowLine } from './run/RunNowLine';
import {
  ApprovalLine,
  ErrorPart,
  HostCallLine,
  RecordChip,
  UnknownData,
} from './parts/DataParts';
import { isDataPart, knownDataPart } from './parts/dataPart';
import { Markdown } from './parts/Markdown';
import { ThinkingSteps } from './plan/ThinkingSteps';
import { RunFooter } from './RunFooter';
import { ChildAgents } from './delegation/ChildAgents';
import { ToolCard, type AnyToolPart } from './parts/ToolCard';
import { Icon } from './icons';
import { UserQuestion } from './conversation/UserQuestion';
import { FinalizeAttempts } from './failure/FinalizeAttempts';
import { branchInfo } from '../store/branchView';
import { useAppStore } from '../store/context';
import { AnswerOutcome, runFailureCode } from './conversation/AnswerOutcome';

function isTool(p: UIPart): p is AnyToolPart {
  return p.type === 'dynamic-tool' || (p.type.startsWith('tool-') && 'toolCallId' in p);
}

// The user's turn as a bubble lives in its own file (UserQuestion adds Edit around it).
export { UserBubble } from './conversation/UserBubble';

function Reasoning({ part }: { part: ReasoningUIPart }) {
  const t = useT();
  const streaming = part.state === 'streaming';
  return (
    <details className="reasoning" data-testid="reasoning" open={streaming || undefined}>
      <summary>
        {streaming ? (
          <span className="spinner spinner-sm" aria-hidden="true" />
        ) : (
          <Icon name="dashedCircle" size={14} />
        )}
        {streaming ? t('conv.reasoningStreaming') : t('conv.reasoning')}
      </summary>
      <div className="reasoning-text">{part.text}</div>
    </details>
  );
}

/** Host calls, approvals and activity steps keyed by the tool call they belong to, so the tool card shows them. */
function toolAnnotations(parts: readonly UIPart[]) {
  const hostCalls = new Map<string, HostCallEventData>();
  const approvals = new Map<string, ApprovalEventData>();
  const steps = new Map<string, ThinkingStepData>();
  for (const p of parts) {
    if (isDataPart(p, 'host-call') && p.data.toolCallId) hostCalls.set(p.data.toolCallId, p.data);
    if (isDataPart(p, 'approval') && p.data.toolCallId) approvals.set(p.data.toolCallId, p.data);
    if (isDataPart(p, 'thinking-step') && p.data.toolCallId && p.data.kind === 'activity' && p.data.label?.key !== 'approval')
      steps.set(p.data.toolCallId, p.data);
  }
  return { hostCalls, approvals, steps };
}

interface DataViewContext {
  sessionId: string;
  canAsk: boolean;
  /** The tool calls of the message: their approvals and host calls show in the tool card. */
  toolIds: ReadonlySet<string>;
  /** Every child agent of the message's run (any depth): each card nests its own children. */
  children: readonly ChildData[];
  /** The message's run is still streaming (its running steps tick). */
  live: boolean;
  /** The failure code of the message's failed run (its closing error part is not shown), or null. */
  closingError: string | null;
}

/** Each part of the contract's map of data parts (exhaustive: a new part is a compile error here). */
function dataPartView(part: KnownDataUIPart, key: string, ctx: DataViewContext): ReactNode {
  switch (part.type) {
    case 'data-cell':
      return <CellCard key={key} cell={part.data} sessionId={ctx.sessionId} />;
    case 'data-answer':
      return <AnswerCard key={key} answer={part.data} canAsk={ctx.canAsk} />;
    case 'data-error':
      // A failed run's closing error is explained (cause, fix, Retry) by AnswerOutcome: not twice.
      return ctx.closingError !== null && part.data.errorCode === ctx.closingError ? null : <ErrorPart key={key} data={part.data} />;
    case 'data-approval':
      // Asked: a card to answer in the window. Answered: a tool's card shows the outcome; anything else a line.
      // A question left open by a run that is over (the app was closed while it waited) cannot be answered any more.
      if (part.data.state === 'requested') {
        return ctx.live ? <ApprovalCard key={key} data={part.data} /> : <ApprovalLine key={key} data={{ ...part.data, state: 'expired' }} />;
      }
      return part.data.toolCallId && ctx.toolIds.has(part.data.toolCallId) ? null : (
        <ApprovalLine key={key} data={part.data} />
      );
    case 'data-host-call':
      return part.data.toolCallId ? null : <HostCallLine key={key} data={part.data} />;
    case 'data-evidence':
    case 'data-artifact':
      return <RecordChip key={key} part={part} />;
    case 'data-run-status':
      // A live notice (transient): the run footer and the sidebar show the run's state.
      return null;
    case 'data-child':
      // Each child agent nests under the one that started it; the first-level ones hold the tree.
      return part.data.depth === 1 ? <ChildAgents key={key} root={part.data} all={ctx.children} sessionId={ctx.sessionId} /> : null;
    case 'data-child-event':
      // A chunk of a child's own stream (transient): the child's card shows its state instead.
      return null;
    case 'data-thinking-step':
      // Grouped into one checklist by AssistantMessage; a lone one still shows.
      return <ThinkingSteps key={key} steps={[part.data]} live={ctx.live} />;
    case 'data-compaction':
      return <CompactionDivider key={key} data={part.data} />;
    case 'data-compute-job':
      return <JobStep key={key} data={part.data} />;
    default: {
      const unhandled: never = part;
      return unhandled;
    }
  }
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
  const { hostCalls, approvals, steps: toolSteps } = toolAnnotations(message.parts);
  const cellCodes = cellCodesOf(message.parts);
  const toolIds = new Set(message.parts.filter(isTool).map((x) => x.toolCallId));
  const children = message.parts.flatMap((p) => (isDataPart(p, 'child') ? [p.data] : []));
  const closingError = runFailureCode(message.metadata);
  // Refused finalize_response attempts: one line at the first, not one red card each.
  const refusals = message.parts.flatMap((p) => (p.type === 'tool-finalize_response' && p.state === 'output-error' ? [p.errorText ?? ''] : []));
  const accepted = message.parts.some((p) => p.type === 'data-answer');
  let refusalsShown = false;
  const superseded = useAppStore((s) => branchInfo(s, message.id).superseded);
  const out: ReactNode[] = [];
  let steps: ThinkingStepData[] = [];
  const flushSteps = (key: string) => {
    if (steps.length) out.push(<ThinkingSteps key={`steps-${key}`} steps={steps} live={live} />);
    steps = [];
  };
  message.parts.forEach((part, i) => {
    if (isDataPart(part, 'thinking-step')) {
      steps.push(part.data);
      return;
    }
    flushSteps(String(i));
    const key = `p${i}`;
    if (part.type === 'text') {
      // A fence that became a cell is shown once, as the cell card.
      const text = withoutCellFences(part.text, cellCodes);
      if (text.trim()) out.push(<Markdown key={key} text={text} />);
    } else if (part.type === 'reasoning') {
      if (part.text.trim()) out.push(<Reasoning key={key} part={part} />);
    } else if (isTool(part)) {
      // A valid finalize is the answer card below; refused ones are summarised in one line.
      if (part.type === 'tool-finalize_response' && part.state === 'output-available') return;
      if (part.type === 'tool-finalize_response' && part.state === 'output-error') {
        if (!refusalsShown) out.push(<FinalizeAttempts key={key} errors={refusals} accepted={accepted} live={live} />);
        refusalsShown = true;
        return;
      }
      out.push(
        <ToolCard
          key={key}
          part={part}
          hostCall={hostCalls.get(part.toolCallId)}
          approval={approvals.get(part.toolCallId)}
          step={toolSteps.get(part.toolCallId)}
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
      const known = knownDataPart(part);
      out.push(
        known ? (
          dataPartView(known, key, { sessionId, canAsk, toolIds, children, live, closingError })
        ) : (
          <UnknownData key={key} part={part as DataUIPart} />
        ),
      );
    }
  });
  flushSteps('end');
  return (
    <article
      className={`msg msg-assistant${superseded ? ' superseded' : ''}`}
      data-testid="assistant-message"
      data-message-id={message.id}
      aria-busy={live || undefined}
      data-superseded={superseded || undefined}
    >
      <div className="msg-avatar" aria-hidden="true">
        4S
      </div>
      <div className="msg-body">
        <div className="msg-name">{t('conv.assistant')}</div>
        {out}
        {live ? <RunNowLine message={message} /> : null}
        <AnswerOutcome message={message} live={live} />
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
    return <UserQuestion text={text} messageId={props.message.id} />;
  }
  return <AssistantMessage {...props} />;
}
