import type { UIMessage } from '../../../src-preload/contract/stream';
import type { LlmMessage } from '../llm/types';

/**
 * Earlier runs of a session, as the model sees them in a new run: each user turn and
 * the assistant's visible text plus its final answer. Tool traffic and cell output of
 * finished runs are left out (they are in the ledger, not in the prompt), which keeps
 * follow-up questions cheap.
 */
export function priorHistory(messages: readonly UIMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  for (const message of messages) {
    const texts: string[] = [];
    let answer: string | null = null;
    for (const part of message.parts) {
      if (part.type === 'text' && part.text.trim()) texts.push(part.text.trim());
      if (part.type === 'data-answer') {
        const data = (part as { data?: { summary?: unknown } }).data;
        if (data && typeof data.summary === 'string') answer = data.summary;
      }
    }
    if (message.role === 'user') {
      if (texts.length) out.push({ role: 'user', content: texts.join('\n\n') });
      continue;
    }
    if (message.role !== 'assistant') continue;
    const content = answer !== null ? answer : texts.join('\n\n');
    if (!content) continue;
    // Two assistant turns in a row are merged; a provider wants alternation.
    const last = out[out.length - 1];
    if (last?.role === 'assistant') last.content = `${last.content}\n\n${content}`;
    else out.push({ role: 'assistant', content });
  }
  return out;
}
