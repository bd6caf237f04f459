import type { StandingContextSource } from '../archive/standingContext';
import type { Ledger } from '../ledger/ledger';
import { memoryPlanSections } from './standingContext';

/**
 * The memory and plan sections of a session's standing context, read from the ledger each
 * time they are asked for (every turn), so a memory added or a step moved mid-run is in the
 * next request.
 */
export function memoryStanding(ledger: () => Ledger): StandingContextSource {
  return (sessionId) => {
    const l = ledger();
    return memoryPlanSections(l.memory.visible(sessionId), l.memory.plan(sessionId));
  };
}
