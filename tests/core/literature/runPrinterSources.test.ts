import { describe, expect, it } from 'vitest';
import { textPrinter } from '../../../src-main/cli/commands/runPrinter';

// Issue 21: `openai4s run` (text) lists a cited answer's sources, and a tool's streamed
// (preliminary) outputs are not reported as the tool being done.
describe('the text printer', () => {
  it('prints sources after the answer and one "done" per finished tool', () => {
    let out = '';
    const print = textPrinter((t) => (out += t), false);
    print({ type: 'tool-input-start', toolCallId: 'c1', toolName: 'science_navigator' });
    print({ type: 'tool-output-available', toolCallId: 'c1', output: { text: 'partial' }, preliminary: true });
    print({ type: 'tool-output-available', toolCallId: 'c1', output: { text: 'partial and more' }, preliminary: true });
    print({ type: 'tool-output-available', toolCallId: 'c1', output: { text: 'final' } });
    print({ type: 'source-url', sourceId: 'ev_aaaaaaaaaaaaaaaa', url: 'https://doi.org/10.1056/NEJMoa2031054', title: 'Frangoul 2021, New England Journal of Medicine: CRISPR-Cas9 Gene Editing' });
    print({ type: 'source-document', sourceId: 'ev_bbbbbbbbbbbbbbbb', mediaType: 'application/pdf', title: 'paper.pdf, pages 1-3', filename: 'paper.pdf' });
    expect(out.match(/science_navigator done/g)).toHaveLength(1);
    expect(out).toContain(
      'Sources:\n  [ev_aaaaaaaaaaaaaaaa] Frangoul 2021, New England Journal of Medicine: CRISPR-Cas9 Gene Editing <https://doi.org/10.1056/NEJMoa2031054>\n  [ev_bbbbbbbbbbbbbbbb] paper.pdf, pages 1-3 (paper.pdf)\n',
    );
  });
});
