import type { Ledger } from '../ledger/ledger';
import { MEMORY_TOKEN_CAP, memoryLines, planLines } from './standingContext';

/** One section of the standing context, in the shape the context policy composes (src-main/core/archive/standingContext.ts). */
export interface MemoryStandingSection {
  title: string;
  text: string;
  maxTokens?: number;
}

/**
 * The memory and plan sections of a session's standing context, read from the ledger each
 * time they are asked for (every turn), so a memory added or a step moved mid-run is in the
 * next request. Memory has its own token cap; the plan is short by construction (≤ 40 steps).
 */
export function memoryStanding(ledger: () => Ledger): (sessionId: string) => MemoryStandingSection[] {
  return (sessionId) => {
    const l = ledger();
    const sections: MemoryStandingSection[] = [];
    const memory = memoryLines(l.memory.visible(sessionId));
    if (memory) sections.push({ title: 'Memory', text: memory, maxTokens: MEMORY_TOKEN_CAP });
    const plan = planLines(l.memory.plan(sessionId));
    if (plan) sections.push({ title: 'Your plan', text: plan });
    return sections;
  };
}
