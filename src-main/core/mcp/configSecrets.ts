import type { McpServerConfig } from './config';

/**
 * The credentials an MCP server entry carries, and how to name the server without them.
 * Keys are not only in `headers` and `env`: remote servers are often given one in the url
 * (`https://host/mcp?api_key=...`, `https://user:pass@host`), and local ones on the command
 * line (`--api-key VALUE`, `--token=VALUE`, `GH_TOKEN=VALUE`). Those values are registered with
 * the scrubber, and what the model and the ledger read names the server by its command and
 * the url's origin and path only.
 */

/** Words of a name that make it a key's name: `GH_TOKEN`, `GITHUB_PAT`, `x-api-key`, `apiKey`, `sig`. */
const SECRET_WORDS = new Set(['key', 'token', 'secret', 'password', 'passwd', 'pwd', 'passphrase', 'pat', 'auth', 'authorization', 'credential', 'credentials', 'signature', 'sig', 'bearer']);
/** The same words run together in one lower-case word (`apikey`, `accesstoken`). */
const SECRET_COMPOUND = /^(?:api|access|secret|private|auth|client|refresh|session|id|bearer)(?:key|token|secret)$/;

/**
 * Whether a name (an env variable, a url query parameter, a command-line flag) holds a key.
 * The name is read word by word (split at `_`, `-`, `.` and camelCase), so `keyword`,
 * `monkey`, `author` and `max_tokens` are not keys, where a substring test took them for ones.
 */
export function isSecretName(name: string): boolean {
  const words = name
    .replace(/^-+/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[_.-]+/)
    .filter(Boolean);
  return words.some((w) => SECRET_WORDS.has(w) || SECRET_COMPOUND.test(w));
}

/** Values of `--flag VALUE`, `--flag=VALUE` and `NAME=VALUE` arguments whose flag or name is secret-like. */
function argSecrets(args: readonly string[]): string[] {
  const out: string[] = [];
  args.forEach((arg, i) => {
    const eq = /^(-{0,2}[\w.-]+)=(.+)$/s.exec(arg);
    if (eq) {
      if (isSecretName(eq[1]!)) out.push(eq[2]!);
      return;
    }
    const next = args[i + 1];
    if (/^--?[\w.-]+$/.test(arg) && isSecretName(arg) && next !== undefined && !next.startsWith('-')) out.push(next);
  });
  return out;
}

function urlSecrets(raw: string): string[] {
  try {
    const url = new URL(raw);
    const out = [decodeURIComponent(url.password)];
    for (const [name, value] of url.searchParams) if (isSecretName(name)) out.push(value);
    return out.filter(Boolean);
  } catch {
    // The config layer only passes valid urls; nothing to register otherwise.
    return [];
  }
}

export function configSecrets(config: McpServerConfig): string[] {
  if (config.transport === 'http') return [...Object.values(config.headers), ...urlSecrets(config.url)];
  return [...Object.entries(config.env).filter(([k]) => isSecretName(k)).map(([, v]) => v), ...argSecrets(config.args)];
}

/** The server as the model and the ledger see it in messages: its command, or its url's origin and path (no query, no user). */
export function publicEndpoint(config: McpServerConfig): string {
  if (config.transport === 'stdio') return config.command;
  try {
    const url = new URL(config.url);
    return `${url.origin}${url.pathname}`;
  } catch {
    // Not reached with a checked config.
    return config.name;
  }
}

const HIDDEN = '<hidden>';

/**
 * The server as Settings and `openai4s mcp servers` show it: the whole command line or url,
 * with each key's value replaced by `<hidden>` (a url's password and key-named query
 * values; `--token VALUE`, `--api-key=VALUE` and `GH_TOKEN=VALUE` arguments), so a
 * screenshot or a pasted `--json` listing carries no credential.
 */
export function displayEndpoint(config: McpServerConfig): string {
  if (config.transport === 'stdio') {
    const secret = new Set(argSecrets(config.args));
    const args = config.args.map((arg) => {
      const eq = /^(-{0,2}[\w.-]+)=(.+)$/s.exec(arg);
      if (eq && secret.has(eq[2]!) && isSecretName(eq[1]!)) return `${eq[1]}=${HIDDEN}`;
      return secret.has(arg) ? HIDDEN : arg;
    });
    return [config.command, ...args].join(' ').trim();
  }
  try {
    const url = new URL(config.url);
    if (url.password) url.password = HIDDEN;
    for (const name of [...new Set(url.searchParams.keys())]) {
      if (isSecretName(name)) url.searchParams.set(name, HIDDEN);
    }
    // URLSearchParams writes <hidden> percent-encoded: show it as typed.
    return url.toString().replaceAll(encodeURIComponent(HIDDEN), HIDDEN);
  } catch {
    return publicEndpoint(config);
  }
}
