import { useEffect, type ReactNode } from 'react';
import type { KernelLeaseOwner, KernelSlotStatus, KernelState } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { agentWorking, type ConversationState } from '../../store/conversationReducer';
import { isDataPart } from '../parts/dataPart';
import { sandboxGapText, slotReasonText } from '../parts/kernelText';
import '../../styles/skills.css';
import { envelopeErrorText } from '../../errors/envelopeText';

/** How often the open panel asks again while nothing in the session's stream says a kernel changed. */
export const KERNEL_POLL_MS = 5000;

/** A state's colour (the shared pill tones); a kernel not started has none. */
const STATE_TONE: Record<KernelState, 'ok' | 'neutral' | 'bad' | null> = { none: null, starting: 'neutral', idle: 'ok', busy: 'neutral', dead: 'bad' };

/**
 * A key that changes whenever a cell starts or ends in the session: the cells arrive in
 * `session.stream`, which the window hears anyway, so the panel refreshes on them without
 * listening to the kernel topics.
 */
export function cellActivity(conversation: ConversationState | null): string {
  if (!conversation) return '';
  const keys: string[] = [];
  for (const m of conversation.fold.messages)
    for (const p of m.parts) if (isDataPart(p, 'cell')) keys.push(`${p.id ?? ''}:${p.data.status}`);
  return keys.join('|');
}

/** `holder`: who holds the session's kernels now; a restart is refused while anyone does (kernel.restart). */
function KernelRow({ sessionId, slot, holder }: { sessionId: string; slot: KernelSlotStatus; holder: KernelLeaseOwner | null }) {
  const t = useT();
  const pending = useAppStore((s) => s.kernelActions[slot.language]);
  const act = useAppStore((s) => s.runKernelAction);
  const name = t(`kernel.language.${slot.language}`);
  const sandbox = slot.sandbox;
  const reason = slotReasonText(t, slot);
  return (
    <li
      className="kernel-row"
      data-testid="kernel-row"
      data-language={slot.language}
      data-state={slot.state}
    >
      <strong>{name}</strong>
      <span className={`badge${STATE_TONE[slot.state] ? ` pill-${STATE_TONE[slot.state]}` : ''}`} data-testid="kernel-state">
        {t(`kernel.state.${slot.state}`)}
      </span>
      {slot.generation ? (
        <span className="mono small muted" title={slot.generation} data-testid="kernel-generation">
          {t('panel.generation', { id: slot.generation.slice(0, 8) })}
        </span>
      ) : null}
      {sandbox ? (
        <span className="small muted" data-testid="kernel-sandbox">
          {sandbox.state === 'sandboxed'
            ? t('kernel.sandbox.sandboxed', { backend: sandbox.backend })
            : sandbox.state === 'degraded'
              ? t('kernel.sandbox.degraded', { reason: sandboxGapText(t, sandbox) })
              : t('kernel.sandbox.off')}
        </span>
      ) : null}
      {reason ? <span className="small error-text" data-testid="kernel-reason">{reason}</span> : null}
      <span className="kernel-actions">
        <button
          type="button"
          className="btn btn-ghost"
          disabled={slot.state !== 'busy' || pending !== undefined}
          onClick={() => void act(sessionId, slot.language, 'interrupt')}
        >
          {t('kernel.interrupt')}
        </button>
        <button
          type="button"
          className="btn btn-ghost"
          data-testid="kernel-restart"
          disabled={slot.state === 'none' || pending !== undefined || holder !== null}
          title={holder ? t('kernel.restartHeld', { holder: t(`notebook.holder.${holder.kind}`) }) : undefined}
          onClick={() => {
            if (window.confirm(t('kernel.restartConfirm', { language: name })))
              void act(sessionId, slot.language, 'restart');
          }}
        >
          {t('kernel.restart')}
        </button>
      </span>
    </li>
  );
}

/**
 * The open session's Python and R kernels: state, generation, sandbox, Interrupt and Restart,
 * and what `children` add (the Notebook tab's environment picker). The user's own code runs
 * in the notebook's cells below (UserNotebook), the one way a user runs code in a kernel.
 */
export function KernelPanel({ sessionId, children }: { sessionId: string; children?: ReactNode }) {
  const t = useT();
  const kernels = useAppStore((s) => s.kernels);
  const load = useAppStore((s) => s.loadKernels);
  const activity = useAppStore((s) => cellActivity(s.conversation));
  // A turn's end releases the kernels (the lease): ask then too, not only at the next poll.
  const working = useAppStore((s) => agentWorking(s.conversation));

  useEffect(() => {
    void load(sessionId);
  }, [sessionId, activity, working, load]);
  // A kernel also changes without a cell (idle shutdown, a crash): ask again now and then,
  // only while the panel is on screen and the window is visible.
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void load(sessionId);
    }, KERNEL_POLL_MS);
    return () => clearInterval(timer);
  }, [sessionId, load]);

  const slots = kernels.sessionId === sessionId ? (kernels.data?.slots ?? []) : [];
  const holder = kernels.sessionId === sessionId ? (kernels.data?.lease?.holder ?? null) : null;
  return (
    <section className="kernel-panel" aria-label={t('kernel.title')} data-testid="kernel-panel">
      {kernels.status === 'error' ? (
        <p className="small error-text">{envelopeErrorText(t, kernels.error)}</p>
      ) : null}
      <ul className="kernel-list">
        {slots.map((slot) => (
          <KernelRow key={slot.language} sessionId={sessionId} slot={slot} holder={holder} />
        ))}
      </ul>
      {children}
    </section>
  );
}
