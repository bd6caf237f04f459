import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Markdown } from '../../src-renderer/src/components/parts/Markdown';

// The markdown renderer (react-markdown, KaTeX, highlight.js) is a chunk loaded on demand
// (issue 16): the text shows at once as plain text, then rendered, with the chosen languages.

afterEach(cleanup);

const TEXT = [
  '## Chains',
  '',
  '| chain | length |',
  '|---|---|',
  '| A | 21 |',
  '',
  'Mass $m = 5.8\\,\\mathrm{kDa}$.',
  '',
  '```python',
  'def total(xs):',
  '    return sum(xs)',
  '```',
  '',
  '```r',
  'x <- c(21, 30)',
  '```',
  '',
  '```rust',
  'fn main() {}',
  '```',
].join('\n');

describe('Markdown (loaded lazily)', () => {
  it('shows the text as plain text first, then renders tables, math and highlighted code', async () => {
    const { container, findByRole } = render(<Markdown text={TEXT} />);
    const plain = container.querySelector('[data-markdown="loading"]');
    expect(plain?.textContent).toBe(TEXT);

    // Generous: the first import transforms the renderer's libraries (not a speed assertion).
    await findByRole('table', {}, { timeout: 30_000 });
    const md = container.querySelector('[data-markdown="rendered"]')!;
    expect(md.querySelector('h2')?.textContent).toBe('Chains');
    expect(md.querySelector('.katex')).not.toBeNull();
    const python = md.querySelector('code.language-python')!;
    expect(python.classList.contains('hljs')).toBe(true);
    expect(python.querySelector('.hljs-keyword')?.textContent).toBe('def');
    expect(md.querySelector('code.language-r')?.classList.contains('hljs')).toBe(true);
    // Not one of the registered languages: shown as it is, without highlighting or an error.
    const rust = md.querySelector('code.language-rust')!;
    expect(rust.textContent).toBe('fn main() {}\n');
    expect(rust.querySelector('[class^="hljs-"]')).toBeNull();
  });
});
