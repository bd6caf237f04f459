import type { ThinkingStepData } from '../../../src-preload/contract/dataParts';
import type { MemoryRecord } from '../../../src-preload/contract/memory';
import type { StandingSection } from '../archive/standingContext';
import { estimateTokens } from '../archive/tokens';
import { planText } from './plan';

/** The memory section's budget in the request: a few hundred tokens, whatever the number of memories. */
export const MEMORY_TOKEN_CAP = 600;

const MEMORY_HEAD = "Facts and preferences kept across turns (the user's are instructions; forget(id) drops a wrong one of yours):";

/**
 * The memories the model reads each turn, newest first within the cap: what was said last
 * matters most. Memories left out are counted, so the model knows there are more (the user
 * sees them all in the Memory panel). Each line says whose memory it is and its id.
 */
export function memoryLines(memories: readonly MemoryRecord[], cap = MEMORY_TOKEN_CAP, count: (t: string) => number = estimateTokens): string {
  if (!memories.length) return '';
  let used = count(MEMORY_HEAD) + 4;
  const lines: string[] = [];
  const newestFirst = [...memories].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
  let left = 0;
  for (const m of newestFirst) {
    const line = `- ${m.id} (${m.origin === 'user' ? 'user' : 'agent'}, ${m.scope === 'session' ? 'this session' : 'all sessions'}): ${m.text.replace(/\s+/g, ' ')}`;
    const cost = count(line) + 1;
    if (used + cost > cap) {
      left++;
      continue;
    }
    used += cost;
    lines.push(line);
  }
  const more = left ? `\n(${left} older ${left === 1 ? 'memory does' : 'memories do'} not fit here.)` : '';
  return `${MEMORY_HEAD}\n${lines.join('\n')}${more}`;
}

/** The plan's lines and how to keep it current (empty when there is no plan). */
export function planLines(plan: readonly ThinkingStepData[]): string {
  return plan.length ? `${planText(plan)}\nKeep it current with update_plan_step(id, status); rewrite it with write_todos.` : '';
}

/**
 * The memory and plan sections of the standing context (none when there is neither).
 * Memory has its own token cap; the plan is short by construction (≤ 40 steps).
 */
export function memoryPlanSections(memories: readonly MemoryRecord[], plan: readonly ThinkingStepData[]): StandingSection[] {
  const sections: StandingSection[] = [];
  const memory = memoryLines(memories);
  if (memory) sections.push({ title: 'Memory', text: memory, maxTokens: MEMORY_TOKEN_CAP });
  const steps = planLines(plan);
  if (steps) sections.push({ title: 'Your plan', text: steps });
  return sections;
}
