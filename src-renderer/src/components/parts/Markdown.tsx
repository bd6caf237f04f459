import { lazy, memo, Suspense } from 'react';

/**
 * The markdown renderer with KaTeX and highlight.js is most of the app's script, and
 * the first window (start page, settings, system) shows none of it: it is a chunk of
 * its own, fetched when idle after the first paint (so an opened conversation rarely
 * waits for it) or when the first message needs it.
 */
const loadRenderer = () => import('./MarkdownRenderer');
const MarkdownRenderer = lazy(loadRenderer);

/** Starts fetching the renderer without showing anything; safe to call more than once. */
export function preloadMarkdown(): void {
  void loadRenderer().catch(() => {
    // The lazy component retries when it renders and shows the failure there.
  });
}

/** Model text as markdown; until the renderer has loaded, the same text as plain text. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <Suspense
      fallback={
        <div className="md md-plain" data-markdown="loading">
          {text}
        </div>
      }
    >
      <MarkdownRenderer text={text} />
    </Suspense>
  );
});
