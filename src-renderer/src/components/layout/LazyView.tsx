import { Component, Suspense, type ReactNode } from 'react';
import { useT } from '../../i18n/useT';

/**
 * A view loaded on demand (lazyViews.ts): empty while its chunk loads, and if the chunk
 * cannot be loaded (the app was updated under an open window, a file is missing) a
 * sentence that says so and a way out, instead of a blank window.
 */
export function LazyView({ children }: { children: ReactNode }) {
  return (
    <ViewBoundary>
      <Suspense fallback={null}>{children}</Suspense>
    </ViewBoundary>
  );
}

class ViewBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render() {
    return this.state.error ? <ViewFailed message={this.state.error.message} /> : this.props.children;
  }
}

function ViewFailed({ message }: { message: string }) {
  const t = useT();
  return (
    <div className="alert" role="alert" data-testid="view-failed">
      <p>{t('view.loadFailed', { message })}</p>
      <button type="button" className="btn" onClick={() => window.location.reload()}>
        {t('view.reload')}
      </button>
    </div>
  );
}
