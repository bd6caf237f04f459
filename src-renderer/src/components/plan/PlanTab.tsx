import { useEffect, useMemo } from 'react';
import type { ThinkingStepData, UIMessage } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { isDataPart } from '../parts/dataPart';
import { currentStep, stepElapsedMs } from './stepTree';
import { stepTitle } from './stepTitle';
import { ThinkingSteps, useNow } from './ThinkingSteps';
import { formatElapsed } from '../parts/durationText';

const NO_STEPS: readonly ThinkingStepData[] = [];
const NO_MESSAGES: readonly UIMessage[] = [];

function stepsOf(message: UIMessage | undefined): ThinkingStepData[] {
  const out: ThinkingStepData[] = [];
  for (const p of message?.parts ?? []) if (isDataPart(p, 'thinking-step')) out.push(p.data);
  return out;
}

/** A key that changes whenever a plan step on the stream changes (then the plan is read again). */
function planKey(messages: readonly UIMessage[]): string {
  let key = '';
  for (const m of messages) for (const s of stepsOf(m)) if (s.kind === 'plan') key += `${s.id}:${s.status}:${s.title}|`;
  return key;
}

/** What the run does right now, with how long it has been at it. */
function NowLine({ step }: { step: ThinkingStepData | null }) {
  const t = useT();
  const now = useNow(step !== null);
  const elapsed = step ? stepElapsedMs(step, now) : null;
  return (
    <p className="plan-now" role="status" data-testid="plan-now">
      <strong>{t('plan.now')}:</strong>{' '}
      {step ? (
        <>
          <span className="spinner spinner-sm" aria-hidden="true" /> {stepTitle(step, t)}
          {elapsed !== null ? <span className="muted small"> · {formatElapsed(elapsed, t)}</span> : null}
        </>
      ) : (
        <span className="muted">{t('plan.idle')}</span>
      )}
    </p>
  );
}

/**
 * The agent's plan as a live checklist beside the conversation, and what the run is doing
 * now. The plan is the session's (plan.get), read again whenever a plan step changes on
 * the stream; the current activity comes from the live message itself.
 */
export function PlanTab() {
  const t = useT();
  const sessionId = useAppStore((s) => s.conversation?.sessionId ?? null);
  const messages = useAppStore((s) => s.conversation?.fold.messages ?? NO_MESSAGES);
  const open = useAppStore((s) => s.conversation?.fold.open ?? false);
  const plan = useAppStore((s) => s.plan);
  const load = useAppStore((s) => s.loadPlan);
  const key = useMemo(() => planKey(messages), [messages]);
  useEffect(() => {
    if (sessionId) void load(sessionId);
  }, [sessionId, key, load]);
  const live = open ? stepsOf(messages[messages.length - 1]) : [];
  const planned = plan.sessionId === sessionId ? plan.data : NO_STEPS;
  // What runs now joins the checklist, under the plan step it serves (the tree by parentId).
  const running = live.filter((s) => s.kind !== 'plan' && s.status === 'in_progress');
  const steps = running.length ? [...planned, ...running] : planned;
  return (
    <div className="plan-tab" data-testid="plan-tab">
      <NowLine step={currentStep(live.filter((s) => s.kind !== 'plan')) ?? (open ? currentStep(live) : null)} />
      {steps.length ? (
        <ThinkingSteps steps={steps} label={t('plan.title')} live={open} />
      ) : (
        <p className="muted" data-testid="plan-empty">
          {t('plan.empty')}
        </p>
      )}
    </div>
  );
}
