import type { ChildData, ChildStatus } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { formatElapsed } from '../parts/durationText';
import { useNow } from '../plan/ThinkingSteps';
import '../../styles/delegation.css';
import { Icon } from '../icons';
import type { ReactNode } from 'react';

const ENDED: ReadonlySet<ChildStatus> = new Set(['completed', 'failed', 'stopped', 'budget_exhausted']);

const MARK: Record<ChildStatus, ReactNode> = {
  queued: <Icon name="circle" size={12} />,
  running: null,
  completed: <Icon name="check" size={12} />,
  failed: <Icon name="cross" size={12} />,
  stopped: <Icon name="stop" size={12} />,
  budget_exhausted: <Icon name="cross" size={12} />,
};

/** Milliseconds a child ran: to its end, or to `now` while it runs; null before it started. */
export function childElapsedMs(child: ChildData, now: number): number | null {
  if (!child.startedAt) return null;
  const start = Date.parse(child.startedAt);
  const end = child.finishedAt ? Date.parse(child.finishedAt) : now;
  return Number.isNaN(start) || Number.isNaN(end) ? null : Math.max(0, end - start);
}

function ChildLine({ child, all, sessionId, now }: { child: ChildData; all: readonly ChildData[]; sessionId: string; now: number }) {
  const t = useT();
  const stopChild = useAppStore((s) => s.stopChild);
  const below = all.filter((c) => c.parentRunId === child.runId);
  const elapsed = childElapsedMs(child, now);
  const ended = ENDED.has(child.status);
  return (
    <li className={`child child-${child.status}`} data-testid="child-agent" data-status={child.status}>
      <details open={!ended || undefined}>
        <summary className="child-line">
          <span className="child-mark" aria-hidden="true">
            {child.status === 'running' ? <span className="spinner spinner-sm" /> : MARK[child.status]}
          </span>
          <span className="child-task">{child.task}</span>
          <span className="child-status muted small">{t(`delegation.status.${child.status}`)}</span>
          {elapsed !== null ? (
            <span className="child-elapsed muted small" data-testid="child-elapsed">
              {formatElapsed(elapsed, t)}
            </span>
          ) : null}
          {!ended ? (
            <button
              type="button"
              className="btn btn-ghost btn-sm child-stop"
              aria-label={t('delegation.stop')}
              title={t('delegation.stop')}
              onClick={(e) => {
                e.preventDefault();
                void stopChild(sessionId, child.runId);
              }}
            >
              {t('delegation.stopShort')}
            </button>
          ) : null}
        </summary>
        {child.summary ? <p className="child-summary small">{child.summary}</p> : null}
        {child.failure ? <p className="child-failure small">{child.failure}</p> : null}
        {child.evidence.length ? (
          <p className="child-evidence muted small">{t('delegation.evidence', { count: child.evidence.length })}</p>
        ) : null}
        {below.length ? <ChildList children={below} all={all} sessionId={sessionId} now={now} /> : null}
      </details>
    </li>
  );
}

function ChildList({ children, all, sessionId, now }: { children: readonly ChildData[]; all: readonly ChildData[]; sessionId: string; now: number }) {
  return (
    <ul className="child-agents">
      {children.map((c) => (
        <ChildLine key={c.runId} child={c} all={all} sessionId={sessionId} now={now} />
      ))}
    </ul>
  );
}

/**
 * The child agents a tool call started (issue 20), nested by the run that started them:
 * each with its status, elapsed time and a stop button while it runs. Rendered at the first
 * first-level child of a step; the later first-level children of the message render nothing
 * (they are in this list), so the tree appears once, under the step that started it.
 */
export function ChildAgents({ root, all, sessionId }: { root: ChildData; all: readonly ChildData[]; sessionId: string }) {
  const t = useT();
  const siblings = all.filter((c) => c.parentRunId === root.parentRunId);
  const running = all.some((c) => !ENDED.has(c.status));
  const now = useNow(running);
  if (siblings[0]?.runId !== root.runId) return null;
  const done = siblings.filter((c) => ENDED.has(c.status)).length;
  return (
    <section className="child-tree" aria-label={t('delegation.title')} data-testid="child-agents">
      <div className="child-tree-head small muted">{t('delegation.progress', { done, count: siblings.length })}</div>
      <ChildList children={siblings} all={all} sessionId={sessionId} now={now} />
    </section>
  );
}
