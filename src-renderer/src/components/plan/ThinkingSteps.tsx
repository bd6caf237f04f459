import { useEffect, useState, type ReactNode } from 'react';
import type { ThinkingStepData } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import '../../styles/plan.css';
import { stepElapsedMs, stepTree, type StepNode } from './stepTree';
import { stepTitle } from './stepTitle';
import { Icon } from '../icons';
import { formatElapsed } from '../parts/durationText';

/** The current time, re-read every second while `ticking` (a running step shows its elapsed time). */
export function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return undefined;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

const MARK: Record<ThinkingStepData['status'], ReactNode> = {
  pending: <Icon name="circle" size={12} />,
  in_progress: null,
  completed: <Icon name="check" size={12} />,
  failed: <Icon name="cross" size={12} />,
};

function StepLine({ node, now, live }: { node: StepNode; now: number; live: boolean }) {
  const t = useT();
  const { step } = node;
  // A step left running by a run that has ended (stopped, failed) neither spins nor counts on.
  const stalled = step.status === 'in_progress' && !live;
  const elapsed = stalled ? null : stepElapsedMs(step, now);
  return (
    <li className={`step step-${step.status}${stalled ? ' step-stalled' : ''}`} data-testid="thinking-step" data-status={step.status}>
      <div className="step-line">
        <span className="step-mark" aria-hidden="true">
          {stalled ? <Icon name="dashedCircle" size={12} /> : step.status === 'in_progress' ? <span className="spinner spinner-sm" /> : MARK[step.status]}
        </span>
        <span className="step-title">{stepTitle(step, t)}</span>
        <span className="sr-only"> ({t(`plan.status.${step.status}`)})</span>
        {elapsed !== null && step.status !== 'pending' ? (
          <span className="step-elapsed muted small" data-testid="step-elapsed">
            {formatElapsed(elapsed, t)}
          </span>
        ) : null}
      </div>
      {step.items?.length ? (
        <ul className="step-items muted small">
          {step.items.map((item, i) => (
            <li key={i}>{item}</li>
          ))}
        </ul>
      ) : null}
      {node.children.length ? <StepList nodes={node.children} now={now} live={live} /> : null}
    </li>
  );
}

function StepList({ nodes, now, live }: { nodes: StepNode[]; now: number; live: boolean }) {
  return (
    <ul className="thinking-steps">
      {nodes.map((n) => (
        <StepLine key={n.step.id} node={n} now={now} live={live} />
      ))}
    </ul>
  );
}

/**
 * `data-thinking-step` parts as a checklist: a tree by `parentId`, the running step with a
 * spinner and its elapsed time (ticking), finished steps with the time they took. `live`
 * false: the run they belong to is over, so a step still marked running is shown stalled.
 */
export function ThinkingSteps({ steps, label, live = true }: { steps: readonly ThinkingStepData[]; label?: string; live?: boolean }) {
  const t = useT();
  const now = useNow(live && steps.some((s) => s.status === 'in_progress'));
  return (
    <div className="thinking-steps-block" role="group" aria-label={label ?? t('conv.steps')}>
      <StepList nodes={stepTree(steps)} now={now} live={live} />
    </div>
  );
}
