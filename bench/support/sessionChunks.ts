import type { StreamChunk } from '../../src-preload/contract/stream';

/** A realistic run: reasoning, text, a tool call with streamed arguments, a data part. */
export function sessionChunks(n: number): StreamChunk[] {
  const out: StreamChunk[] = [];
  for (let run = 0; out.length < n; run++) {
    out.push({ type: 'user-message', messageId: `u${run}`, text: `question ${run}: look up human insulin INS` });
    out.push({ type: 'start', messageId: `a${run}` }, { type: 'start-step' }, { type: 'reasoning-start', id: 'r' });
    for (let i = 0; i < 20; i++) out.push({ type: 'reasoning-delta', id: 'r', delta: `thinking step ${i} ` });
    out.push({ type: 'reasoning-end', id: 'r' });
    out.push({ type: 'tool-input-start', toolCallId: `c${run}`, toolName: 'science_search' });
    for (const piece of ['{"database":"uniprot",', '"query":"INS human",', '"limit":5}']) out.push({ type: 'tool-input-delta', toolCallId: `c${run}`, inputTextDelta: piece });
    out.push({ type: 'tool-input-available', toolCallId: `c${run}`, toolName: 'science_search', input: { database: 'uniprot', query: 'INS human', limit: 5 } });
    out.push({ type: 'tool-output-available', toolCallId: `c${run}`, output: { results: 5, evidence: ['ev1', 'ev2'] } });
    out.push({ type: 'data-thinking-step', id: `s${run}`, data: { title: 'searching', status: 'completed' } });
    out.push({ type: 'finish-step' }, { type: 'start-step' }, { type: 'text-start', id: 't' });
    for (let i = 0; i < 60; i++) out.push({ type: 'text-delta', id: 't', delta: `人胰岛素 token ${i} ` });
    out.push({ type: 'text-end', id: 't' }, { type: 'finish-step' }, { type: 'finish', finishReason: 'stop' });
  }
  return out.slice(0, n);
}
