import { describe, expect, it } from 'vitest';
import { budgetContextPolicy } from '../../../src-main/core/engine/contextPolicy';
import type { LlmMessage } from '../../../src-main/core/llm/types';

const big = (n: number) => 'x'.repeat(n);

describe('context budget', () => {
  const history: LlmMessage[] = [
    { role: 'user', content: 'question' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'web_fetch', rawArguments: '{}' }] },
    { role: 'tool', toolCallId: 'a', toolName: 'web_fetch', content: big(5000) },
    { role: 'assistant', content: '```python\nprint(1)\n```' },
    { role: 'user', content: `Cell result:\n${big(5000)}` },
    { role: 'assistant', content: 'thinking' },
    { role: 'tool', toolCallId: 'b', toolName: 'list_dir', content: big(3000) },
  ];

  it('passes a history under budget through unchanged', () => {
    expect(budgetContextPolicy({ maxChars: 100_000, keepRecent: 2 }).prepare(history)).toEqual(history);
  });

  it('elides the oldest bulky results first, keeping the question, the structure and the recent messages', () => {
    const out = budgetContextPolicy({ maxChars: 9_000, keepRecent: 2 }).prepare(history);
    expect(out).toHaveLength(history.length);
    expect(out[0]).toEqual(history[0]);
    expect(out[2]).toMatchObject({ role: 'tool', toolCallId: 'a' });
    expect(out[2]!.content).toMatch(/characters of this earlier result elided/);
    expect(out[4]!.content.length).toBe(5000 + 'Cell result:\n'.length); // budget met after the first
    expect(out[6]).toEqual(history[6]);
    // The input is not modified.
    expect(history[2]!.content).toHaveLength(5000);
  });

  it('never leaves an untrusted-data block without its closing marker', () => {
    const web = `URL: x\n<<<BEGIN_UNTRUSTED_DATA source="web_fetch x" id="1">>>\n${big(6000)}\n<<<END_UNTRUSTED_DATA id="1">>>`;
    const out = budgetContextPolicy({ maxChars: 1_000, keepRecent: 1 }).prepare([
      { role: 'user', content: 'q' },
      { role: 'tool', toolCallId: 'a', toolName: 'web_fetch', content: web },
      { role: 'assistant', content: 'ok' },
    ]);
    expect(out[1]!.content).not.toContain('<<<');
    expect(out[1]!.content).toMatch(/elided to fit the context/);
  });
});
