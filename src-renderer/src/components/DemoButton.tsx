import { useT } from '../i18n/useT';
import { useAppStore } from '../store/context';
import { Icon } from './icons';

/**
 * Starts the recorded insulin replay ("Try the demo") in a new session and opens it.
 * The label always says it is a replay, so nobody mistakes it for a live run.
 */
export function DemoButton({ variant }: { variant: 'hero' | 'sidebar' }) {
  const t = useT();
  const start = useAppStore((s) => s.startDemo);
  const starting = useAppStore((s) => s.demoStatus === 'starting');
  return (
    <button
      type="button"
      className={variant === 'hero' ? 'btn btn-primary btn-demo' : 'btn btn-ghost btn-block btn-demo-side'}
      onClick={() => void start()}
      disabled={starting}
      aria-busy={starting}
      data-testid={variant === 'hero' ? 'demo-start' : 'demo-start-sidebar'}
    >
      {starting ? (
        <span className="spinner spinner-sm" aria-hidden="true" />
      ) : (
        <Icon name="play" size={14} />
      )}{' '}
      {starting
        ? t('welcome.demo.starting')
        : variant === 'hero'
          ? t('welcome.demo.button')
          : t('sidebar.demo')}
    </button>
  );
}
