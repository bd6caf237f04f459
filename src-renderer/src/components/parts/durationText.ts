import type { Params } from '../../i18n/language';
import type { MessageKey } from '../../i18n/messages';

type Translate = (key: MessageKey, params?: Params) => string;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A span of time in the window's language, short enough for a checklist line: "4 s",
 * "2 min 05 s", "1 h 03 min" (in Chinese "4 秒", "2 分 05 秒", "1 小时 03 分"). Tool
 * cards, steps, cells, child agents, the run clock and compute jobs all say it this way.
 */
export function formatElapsed(ms: number, t: Translate): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  if (s < 60) return t('elapsed.seconds', { s });
  const m = Math.floor(s / 60);
  if (m < 60) return t('elapsed.minutes', { m, s: pad(s % 60) });
  return t('elapsed.hours', { h: Math.floor(m / 60), m: pad(m % 60) });
}

/** Under ten seconds with a decimal ("0.4 s"), then as `formatElapsed`. */
export function formatSecondsShort(ms: number, t: Translate): string {
  const clamped = Math.max(0, ms);
  return clamped < 10_000 ? t('elapsed.seconds', { s: (clamped / 1000).toFixed(1) }) : formatElapsed(clamped, t);
}
