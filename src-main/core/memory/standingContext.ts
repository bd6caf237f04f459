import type { ThinkingStepData } from '../../../src-preload/contract/dataParts';
import type { MemoryRecord } from '../../../src-preload/contract/memory';
import { planText } from './plan';

/** The memory section's budget in the request: a few hundred tokens, whatever the number of memories. */
export const MEMORY_TOKEN_CAP = 600;

/**
 * A quick token estimate that errs high (about 3.5 characters a token for prose, one a
 * character for CJK): the cap must hold on every provider, so it is never under.
 */
export function roughTokens(text: string): number {
  let cjk = 0;
  for (const ch of text) if (/[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]/u.test(ch)) cjk++;
  return Math.ceil((text.length - cjk) / 3.5 + cjk * 1.1);
}

const MEMORY_HEAD = "Facts and preferences kept across turns (the user's are instructions; forget(id) drops a wrong one of yours):";

/**
 * The memories the model reads each turn, newest first within the cap: what was said last
 * matters most. Memories left out are counted, so the model knows there are more (the user
 * sees them all in the Memory panel). Each line says whose memory it is and its id.
 */
export function memoryLines(memories: readonly MemoryRecord[], cap = MEMORY_TOKEN_CAP, count: (t: string) => number = roughTokens): string {
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

/** The memory section with its heading (empty when there are no memories). */
export function memorySection(memories: readonly MemoryRecord[], cap = MEMORY_TOKEN_CAP, count: (t: string) => number = roughTokens): string {
  const body = memoryLines(memories, cap, count);
  return body ? `## Memory\n${body}` : '';
}

/** The plan's lines and how to keep it current (empty when there is no plan). */
export function planLines(plan: readonly ThinkingStepData[]): string {
  return plan.length ? `${planText(plan)}\nKeep it current with update_plan_step(id, status); rewrite it with write_todos.` : '';
}

/** The plan the model reads each turn (empty when it has none). */
export function planSection(plan: readonly ThinkingStepData[]): string {
  const body = planLines(plan);
  return body ? `## Your plan\n${body}` : '';
}

/** Memory and plan as one block for the system prompt (empty when there is neither). */
export function standingContext(memories: readonly MemoryRecord[], plan: readonly ThinkingStepData[], cap = MEMORY_TOKEN_CAP): string {
  return [memorySection(memories, cap), planSection(plan)].filter(Boolean).join('\n\n');
}
