import type { MessageKey } from '../i18n/messages';
import { useT } from '../i18n/useT';
import { useAppStore } from '../store/context';
import { isRecord } from './parts/format';

interface RunMeta {
  provider?: string;
  model?: string;
  run?: {
    status?: string;
    failureCode?: string | null;
    turns?: number;
    usage?: {
      promptTokens?: number | null;
      completionTokens?: number | null;
      reasoningTokens?: number | null;
      cachedTokens?: number | null;
    };
    cost?: { currency: string; amount: number } | null;
  };
}

const TONE: Record<string, string> = { completed: 'ok', failed: 'bad', cancelled: 'warn' };

/** The run's outcome under its message: status, model, tokens, turns and cost (from message metadata). */
export function RunFooter({ metadata }: { metadata: unknown }) {
  const t = useT();
  const language = useAppStore((s) => s.language);
  if (!isRecord(metadata)) return null;
  const meta = metadata as RunMeta;
  const run = meta.run;
  const num = (n: number | null | undefined) =>
    typeof n === 'number' ? new Intl.NumberFormat(language).format(n) : '–';
  const items: string[] = [];
  if (meta.model) items.push(meta.provider ? `${meta.provider} · ${meta.model}` : meta.model);
  if (run?.usage) {
    items.push(
      t('conv.tokens', {
        input: num(run.usage.promptTokens),
        output: num(run.usage.completionTokens),
      }),
    );
    if (run.usage.reasoningTokens)
      items.push(t('conv.reasoningTokens', { count: num(run.usage.reasoningTokens) }));
  }
  if (run?.turns) items.push(t('conv.turns', { count: run.turns }));
  if (run) {
    items.push(
      run.cost
        ? t('conv.cost', {
            amount: new Intl.NumberFormat(language, {
              style: 'currency',
              currency: run.cost.currency,
              maximumFractionDigits: 4,
            }).format(run.cost.amount),
          })
        : t('conv.costUnknown'),
    );
  }
  if (!run?.status && items.length === 0) return null;
  return (
    <footer className="run-footer" data-testid="run-footer" data-status={run?.status}>
      {run?.status ? (
        <span className={`pill pill-${TONE[run.status] ?? 'neutral'}`}>
          {/* The failure itself is explained above (cause, fix, details): no code here. */}
          {t(`conv.runStatus.${run.status}` as MessageKey)}
        </span>
      ) : null}
      {items.map((x, i) => (
        <span key={i} className="muted">
          {x}
        </span>
      ))}
    </footer>
  );
}
