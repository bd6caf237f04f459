import { Children, isValidElement, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import rehypeKatex from 'rehype-katex';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import 'katex/dist/katex.min.css';
import { HIGHLIGHT_LANGUAGES } from './highlightLanguages';

const remarkPlugins = [remarkGfm, remarkMath];
// `throwOnError: false`: a half-streamed formula renders as red source, never as a crash.
const rehypePlugins: NonNullable<Parameters<typeof ReactMarkdown>[0]['rehypePlugins']> = [
  [rehypeKatex, { throwOnError: false, strict: 'ignore' }],
  [rehypeHighlight, { detect: false, ignoreMissing: true, languages: HIGHLIGHT_LANGUAGES }],
];

/** The text a cell shows (for its length). */
function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (isValidElement<{ children?: ReactNode }>(node)) return textOf(node.props.children);
  let out = '';
  Children.forEach(node, (child) => {
    if (Array.isArray(child) || isValidElement(child) || typeof child === 'string' || typeof child === 'number') out += textOf(child);
  });
  return out;
}

/** Cells longer than this wrap at spaces; shorter ones stay on one line (the table scrolls sideways instead). */
const LONG_CELL = 48;
const cellClass = (children: ReactNode) => (textOf(children).length > LONG_CELL ? 'md-cell-long' : undefined);

/**
 * Links open outside the app (the Electron glue sends http(s) links to the browser); tables
 * scroll sideways in their own box, short cells on one line, long ones wrapping at spaces.
 */
const components: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  ),
  table: ({ children }) => (
    <div className="md-table" tabIndex={0}>
      <table>{children}</table>
    </div>
  ),
  td: ({ node: _node, children, ...rest }) => (
    <td {...rest} className={cellClass(children)}>
      {children}
    </td>
  ),
  th: ({ node: _node, children, ...rest }) => (
    <th {...rest} className={cellClass(children)}>
      {children}
    </th>
  ),
};

/**
 * Model text as GitHub-flavoured markdown with KaTeX math and highlighted code. Raw
 * HTML in the text is shown as text (react-markdown's default), never injected. This
 * module and its libraries are a chunk of their own, loaded by `Markdown`.
 */
export default function MarkdownRenderer({ text }: { text: string }) {
  return (
    <div className="md" data-markdown="rendered">
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
