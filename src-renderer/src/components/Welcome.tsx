import { useT } from '../i18n/useT';
import { useAppStore } from '../store/context';
import { Composer } from './Composer';
import { DemoButton } from './DemoButton';
import { SetupCard } from './setup/SetupCard';
import type { MessageKey } from '../i18n/messages';

const FEATURES: ReadonlyArray<readonly [MessageKey, MessageKey]> = [
  ['welcome.feature.cited.title', 'welcome.feature.cited.body'],
  ['welcome.feature.kernels.title', 'welcome.feature.kernels.body'],
  ['welcome.feature.ledger.title', 'welcome.feature.ledger.body'],
];

/**
 * The empty conversation: what the app does, the provider setup while none is ready (first
 * run), the demo, the first user story as an example, the composer.
 */
export function Welcome() {
  const t = useT();
  const setDraft = useAppStore((s) => s.setDraft);
  return (
    <section className="welcome" aria-labelledby="welcome-title">
      <div className="welcome-body">
        <h1 id="welcome-title">{t('welcome.title')}</h1>
        <p className="lead">{t('welcome.lead')}</p>
        <SetupCard />
        <section className="demo-card" aria-labelledby="demo-title" data-testid="demo-card">
          <div className="demo-card-text">
            <h2 id="demo-title">
              {t('welcome.demo.title')}
              <span className="pill pill-warn demo-tag">{t('welcome.demo.badge')}</span>
            </h2>
            <p className="muted">{t('welcome.demo.body')}</p>
          </div>
          <DemoButton variant="hero" />
        </section>
        <figure className="example">
          <figcaption className="section-label">{t('welcome.exampleLabel')}</figcaption>
          <blockquote data-testid="example-prompt">{t('welcome.examplePrompt')}</blockquote>
          <button
            type="button"
            className="link"
            onClick={() => setDraft(t('welcome.examplePrompt'))}
            data-testid="use-example"
          >
            {t('welcome.useExample')}
          </button>
        </figure>
        <ul className="features">
          {FEATURES.map(([title, body]) => (
            <li key={title}>
              <strong>{t(title)}</strong>
              <span className="muted">{t(body)}</span>
            </li>
          ))}
        </ul>
      </div>
      <Composer />
    </section>
  );
}
