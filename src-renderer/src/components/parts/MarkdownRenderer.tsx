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

/** Links open outside the app (the Electron glue sends http(s) links to the browser); tables scroll. */
const components: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  ),
  table: ({ children }) => (
    <div className="md-table">
      <table>{children}</table>
    </div>
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
