import type { McpServerConfig } from './config';

/**
 * The credentials an MCP server entry carries, and how to name the server without them.
 * Keys are not only in `headers` and `env`: remote servers are often given one in the url
 * (`https://host/mcp?api_key=...`, `https://user:pass@host`), and local ones on the command
 * line (`--api-key VALUE`, `--token=VALUE`, `KEY=VALUE`). Those values are registered with
 * the scrubber, and what the model and the ledger read names the server by its command and
 * the url's origin and path only.
 */

const SECRET_NAME = /key|token|secret|password|passwd|auth|credential|signature|sig$/i;

/** Values of `--flag VALUE`, `--flag=VALUE` and `NAME=VALUE` arguments whose flag or name is secret-like. */
function argSecrets(args: readonly string[]): string[] {
  const out: string[] = [];
  args.forEach((arg, i) => {
    const eq = /^(-{0,2}[\w.-]+)=(.+)$/s.exec(arg);
    if (eq) {
      if (SECRET_NAME.test(eq[1]!)) out.push(eq[2]!);
      return;
    }
    const next = args[i + 1];
    if (/^--?[\w.-]+$/.test(arg) && SECRET_NAME.test(arg) && next !== undefined && !next.startsWith('-')) out.push(next);
  });
  return out;
}

function urlSecrets(raw: string): string[] {
  try {
    const url = new URL(raw);
    const out = [decodeURIComponent(url.password)];
    for (const [name, value] of url.searchParams) if (SECRET_NAME.test(name)) out.push(value);
    return out.filter(Boolean);
  } catch {
    // The config layer only passes valid urls; nothing to register otherwise.
    return [];
  }
}

export function configSecrets(config: McpServerConfig): string[] {
  if (config.transport === 'http') return [...Object.values(config.headers), ...urlSecrets(config.url)];
  return [...Object.entries(config.env).filter(([k]) => SECRET_NAME.test(k)).map(([, v]) => v), ...argSecrets(config.args)];
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
