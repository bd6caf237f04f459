import { handoffSchema, type Handoff } from '../../../src-preload/contract/compaction';
import type { UIMessage } from '../../../src-preload/contract/stream';
import { carriedHandoffNote } from '../archive/handoff';
import type { LlmMessage } from '../llm/types';

interface CellData {
  language?: unknown;
  status?: unknown;
  died?: { reason?: unknown } | null;
}

const LABEL: Record<string, string> = { python: 'Python', r: 'R' };

/**
 * What the model must know of a cell that did not finish: its code is in the history
 * (the fence it wrote), its output is not, so without this note it would assume the
 * variables the cell was meant to create exist. Null for a cell that ran to its end.
 */
export function unfinishedCellNote(data: CellData): string | null {
  const label = LABEL[String(data.language)] ?? String(data.language ?? 'a');
  const died = data.died && typeof data.died === 'object' ? data.died : null;
  if (data.status === 'interrupted' && !died) {
    return `[Note: the ${label} cell of this turn was interrupted before it finished (the run was stopped, or the cell hit its time limit). Variables it assigned after the interruption point do not exist; check before using them.]`;
  }
  if (data.status === 'interrupted' || data.status === 'died') {
    const why = typeof died?.reason === 'string' ? ` (${died.reason})` : '';
    return `[Note: the ${label} cell of this turn did not finish: its kernel ended${why}. All variables, imports and open figures of that kernel are gone; the next cell starts a fresh kernel.]`;
  }
  if (data.status === 'running') {
    return `[Note: the ${label} cell of this turn never finished (the run ended while it was running). Do not assume anything it was meant to create exists; check or recompute it.]`;
  }
  return null;
}

/**
 * Earlier runs of a session, as the model sees them in a new run: each user turn and
 * the assistant's visible text plus its final answer. Tool traffic and cell output of
 * finished runs are left out (they are in the ledger, not in the prompt), which keeps
 * follow-up questions cheap; a cell that did not finish is named, since the model would
 * otherwise take its variables for granted. A run that compacted its context and ended
 * without an answer carries its latest handoff (what was done, in progress, next), so a
 * follow-up "continue" starts from the summary instead of its prose alone.
 */
export function priorHistory(messages: readonly UIMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  for (const message of messages) {
    const texts: string[] = [];
    const notes: string[] = [];
    let answer: string | null = null;
    let handoff: Handoff | null = null;
    for (const part of message.parts) {
      if (part.type === 'data-compaction') {
        // Only a handoff of the contract's shape is carried; anything else in the part is ignored.
        const checked = handoffSchema.safeParse((part as { data?: { handoff?: unknown } }).data?.handoff);
        if (checked.success) handoff = checked.data;
      }
      if (part.type === 'text' && part.text.trim()) texts.push(part.text.trim());
      if (part.type === 'data-answer') {
        const data = (part as { data?: { summary?: unknown } }).data;
        if (data && typeof data.summary === 'string') answer = data.summary;
      }
      if (part.type === 'data-cell') {
        const data = (part as { data?: unknown }).data;
        const note = data && typeof data === 'object' ? unfinishedCellNote(data as CellData) : null;
        if (note) notes.push(note);
      }
    }
    if (message.role === 'user') {
      if (texts.length) out.push({ role: 'user', content: texts.join('\n\n') });
      continue;
    }
    if (message.role !== 'assistant') continue;
    // A run that compacted and ended without an answer hands its latest handoff to the next run.
    const carried = answer === null && handoff ? carriedHandoffNote(handoff) : null;
    const content = [answer !== null ? answer : texts.join('\n\n'), ...notes, carried].filter(Boolean).join('\n\n');
    if (!content) continue;
    // Two assistant turns in a row are merged; a provider wants alternation.
    const last = out[out.length - 1];
    if (last?.role === 'assistant') last.content = `${last.content}\n\n${content}`;
    else out.push({ role: 'assistant', content });
  }
  return out;
}
