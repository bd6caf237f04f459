import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ThinkSplitter } from '../../../src-main/core/llm';

function run(deltas: string[]) {
  const s = new ThinkSplitter();
  const pieces = [...deltas.flatMap((d) => s.push(d)), ...s.flush()];
  return {
    text: pieces.filter((p) => p.kind === 'text').map((p) => p.text).join(''),
    reasoning: pieces.filter((p) => p.kind === 'reasoning').map((p) => p.text).join(''),
  };
}

describe('ThinkSplitter', () => {
  it('moves a <think> block to reasoning and drops the layout whitespace after it', () => {
    expect(run(['<think>plan: call uniprot</think>\n\nThe answer is 42.'])).toEqual({
      reasoning: 'plan: call uniprot',
      text: 'The answer is 42.',
    });
  });

  it('handles tags cut across deltas, even one character at a time', () => {
    const whole = 'Intro <think>step 1 < step 2</think> done</thin';
    const oneByOne = run(Array.from(whole));
    expect(oneByOne).toEqual(run([whole]));
    expect(oneByOne).toEqual({ text: 'Intro done</thin', reasoning: 'step 1 < step 2' });
  });

  it('keeps an unclosed block as reasoning and a lone "<" as text', () => {
    expect(run(['a <', 'b'])).toEqual({ text: 'a <b', reasoning: '' });
    expect(run(['<think>never closed'])).toEqual({ text: '', reasoning: 'never closed' });
  });

  it('gives back a possible tag prefix held at the end of the stream, as text or as reasoning', () => {
    expect(run(['the answer is a <'])).toEqual({ text: 'the answer is a <', reasoning: '' });
    expect(run(['x <thi'])).toEqual({ text: 'x <thi', reasoning: '' });
    expect(run(['<think>r</thi'])).toEqual({ text: '', reasoning: 'r</thi' });
  });

  it('gives the same result however the stream is split (property)', () => {
    const token = fc.constantFrom('<think>', '</think>', '<', '>', 'think', 'a', ' ', '\n', '思', '😀');
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 10 }), (tokens, cuts) => {
        const whole = tokens.join('');
        const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
        const deltas: string[] = [];
        let at = 0;
        for (const p of points) {
          deltas.push(whole.slice(at, p));
          at = p;
        }
        deltas.push(whole.slice(at));
        expect(run(deltas)).toEqual(run([whole]));
      }),
      { numRuns: 300 },
    );
  });
});
