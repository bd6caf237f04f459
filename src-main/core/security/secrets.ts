/**
 * The one secret scrubber. Provider errors, log lines, the ledger's failure and error
 * records and the text files of an export all pass through `scrubSecrets` before they
 * are stored or shown, because a provider that echoes the key in a 401 body (or a proxy
 * that prints the request headers) would otherwise put the key on disk in clear.
 *
 * Two layers:
 * - every configured secret value (provider keys from the environment, the data root's
 *   `.env` and Settings) is replaced wherever it appears, whatever its shape;
 * - anything shaped like a credential is replaced too: `sk-...` keys, `Bearer` tokens,
 *   `api_key=...` and similar key-value pairs, key-named url query parameters
 *   (`?key=...`, `&access_token=...`), AWS access key ids, Google API keys,
 *   GitHub and Slack tokens, JWTs.
 * The label around a value is kept (`Bearer [redacted]`, `api_key=[redacted]`) so the
 * message still says what was wrong.
 */
import { formatWithOptions } from 'node:util';
import type { ConfigEnv } from '../config/env';
import { PROVIDERS } from '../config/providerCatalog';
import { isPlaceholderKey, keyVariablesFor, type SettingsKeyLookup } from '../config/providers';

export const REDACTED = '[redacted]';

/** Shorter values are too likely to occur by chance (and too weak to be real keys). */
const MIN_SECRET_LENGTH = 8;

const known = new Set<string>();
let knownPattern: RegExp | null = null;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Adds secret values this process must never store or print. Placeholders and short values are ignored. */
export function registerSecrets(values: Iterable<string | null | undefined>): void {
  let added = false;
  for (const raw of values) {
    const value = raw?.trim();
    if (!value || value.length < MIN_SECRET_LENGTH || isPlaceholderKey(value) || known.has(value)) continue;
    known.add(value);
    added = true;
  }
  if (added) {
    // Longest first, so a key that contains another is replaced whole.
    const sorted = [...known].sort((a, b) => b.length - a.length);
    knownPattern = new RegExp(sorted.map(escapeRegExp).join('|'), 'g');
  }
}

/** For tests: forget every registered secret. */
export function clearRegisteredSecrets(): void {
  known.clear();
  knownPattern = null;
}

/** Environment variable names whose values are secrets by name. */
const SECRET_NAME = /(?:API[_-]?KEY|ACCESS[_-]?KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIALS?|(?:^|_)PAT)$/i;

/**
 * Every secret the configuration knows: each provider's key variables (real environment
 * and `.env`), the keys stored in Settings, and any process variable named like a secret.
 */
export function configuredSecrets(env: ConfigEnv, settingsKey?: SettingsKeyLookup, processEnv: NodeJS.ProcessEnv = process.env): string[] {
  const out: string[] = [];
  for (const spec of PROVIDERS) {
    for (const name of keyVariablesFor(spec)) {
      const v = env.value(name);
      if (v) out.push(v);
    }
    if (settingsKey) {
      try {
        const stored = settingsKey(spec.id);
        if (stored) out.push(stored);
      } catch {
        // a locked or unavailable key store holds nothing we could leak
      }
    }
  }
  for (const [name, value] of Object.entries(processEnv)) if (value && SECRET_NAME.test(name)) out.push(value);
  return out;
}

// A token: what keys are made of. At least one digit, so ordinary words and
// identifiers (`os.environ`, `undefined`) are not mistaken for values.
const TOKEN = String.raw`(?=[A-Za-z0-9._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}`;

/** Credential shapes: [pattern, replacement]. Replacements keep the label, drop the value. */
const SHAPES: [RegExp, string][] = [
  // JSON Web Tokens (three base64url parts, the first two JSON objects).
  [/\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g, REDACTED],
  // OpenAI, Anthropic (sk-ant-...), DeepSeek, OpenRouter (sk-or-...) keys.
  [/\bsk-[A-Za-z0-9_-]{16,}/g, REDACTED],
  // AWS access key ids.
  [/\b(?:AKIA|ASIA|AIDA|AROA)[0-9A-Z]{16}\b/g, REDACTED],
  // Google API keys.
  [/\bAIza[0-9A-Za-z_-]{35}/g, REDACTED],
  // GitHub and Slack tokens.
  [/\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g, REDACTED],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/g, REDACTED],
  // Authorization header values.
  [/\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`],
  // key=value, key: value, "key": "value" for key-like names (the label stays). A bare
  // `key` is not one of them: artifact records name their storage path `key`.
  [
    new RegExp(
      String.raw`\b((?:x-)?(?:api[_-]?key|apikey|api[_-]?token|access[_-]?token|auth[_-]?token|refresh[_-]?token|secret[_-]?key|client[_-]?secret|private[_-]?key|password|passwd|secret|token|goog-api-key|authorization)["']?\s*[:=]\s*["']?)${TOKEN}`,
      'gi',
    ),
    `$1${REDACTED}`,
  ],
  // A url query parameter named as a key (`?key=`, `&api_key=`, `access_token=`, `?pat=`, a SAS `sig=`): any value,
  // letters only too, since in a url the name says what it is. The name must end at the `=` (`keyword=` is not one).
  [/([?&](?:key|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|refresh[_-]?token|id[_-]?token|token|pat|sig|signature|secret|client[_-]?secret|password|passwd)=)[^&#\s"'<>]+/gi, `$1${REDACTED}`],
  // Prose that names a key, then gives it: "API key provided: abc123...".
  [new RegExp(String.raw`\b(api[ _-]?key[^\n:=]{0,30}?[:=]\s*["']?)${TOKEN}`, 'gi'), `$1${REDACTED}`],
];

/** Replaces every registered secret (and `extra` ones) and anything shaped like a credential. */
export function scrubSecrets(text: string, extra: readonly (string | null | undefined)[] = []): string {
  if (!text) return text;
  let out = text;
  for (const value of extra) {
    const v = value?.trim();
    if (v && v.length >= MIN_SECRET_LENGTH && !isPlaceholderKey(v)) out = out.split(v).join(REDACTED);
  }
  if (knownPattern) out = out.replace(knownPattern, REDACTED);
  for (const [pattern, replacement] of SHAPES) out = out.replace(pattern, replacement);
  return out;
}

/** Only the registered (configured) secret values: for data files, where a key-shaped string may be real data. */
export function scrubKnownSecrets(text: string): string {
  return knownPattern && text ? text.replace(knownPattern, REDACTED) : text;
}

/** `scrubSecrets` over every string inside a JSON-like value (keys kept); returns a copy only when something changed. */
export function scrubDeep<T>(value: T): T {
  if (typeof value === 'string') return scrubSecrets(value) as T;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v: unknown) => {
      const s = scrubDeep(v);
      if (s !== v) changed = true;
      return s;
    });
    return (changed ? out : value) as T;
  }
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const s = scrubDeep(v);
      if (s !== v) changed = true;
      out[k] = s;
    }
    return (changed ? out : value) as T;
  }
  return value;
}

/** Deltas carry the model's text piece by piece: a secret split across two cannot be seen in one, and rewriting them would break the tool-argument text. */
const PIECEWISE = new Set(['text-delta', 'reasoning-delta', 'tool-input-delta']);

/**
 * A stream chunk as the ledger may store it: every string scrubbed (error texts, failure
 * messages, tool outputs, cell output), deltas untouched. Used where chunks are appended,
 * so the live stream and the stored history stay the same.
 */
export function scrubChunk<T extends { type: string }>(chunk: T): T {
  return PIECEWISE.has(chunk.type) ? chunk : scrubDeep(chunk);
}

let consoleScrubbed = false;

/**
 * Log lines go through the scrubber too: `console.error('[ipc] route', error)` would
 * print a provider error (and the key it echoes) to the terminal or a log collector.
 * Idempotent; formats the arguments the way console does, then scrubs the line.
 */
export function scrubConsole(target: Console = console): void {
  if (consoleScrubbed) return;
  consoleScrubbed = true;
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const original = target[level].bind(target);
    target[level] = (...args: unknown[]) => original(scrubSecrets(formatWithOptions({ colors: false }, ...args)));
  }
}
