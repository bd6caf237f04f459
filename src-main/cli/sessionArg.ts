import type { CliIO } from './command';

/**
 * The session id checks every CLI command shares: a session id as the ledger and the app's
 * routes accept it, given as `--session` or as a command's one argument. A bad one is a usage
 * error (exit 2) on one line, before any store is opened.
 */

export const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;
const RULE = '1-128 letters, digits, "_" or "-"';

/** The problem with a `--session` value, or null when it is absent or well formed. */
export function sessionOptionProblem(value: string | boolean | undefined): string | null {
  if (value === undefined) return null;
  return typeof value === 'string' && SESSION_ID.test(value) ? null : `--session takes a session id (${RULE}); got "${String(value)}".`;
}

/** The problem with a command's one session id argument (`openai4s <command> <sessionId>`), or null. */
export function sessionArgProblem(command: string, positionals: string[]): string | null {
  const [id, ...extra] = positionals;
  if (id && !extra.length && SESSION_ID.test(id)) return null;
  return `${command} takes one session id (${RULE}); list them with \`openai4s sessions\`.`;
}

/**
 * Reports a usage problem on one line with where the usage is, and answers exit code 2.
 * The problem's sentence is closed here, so callers (and node's own messages) need not.
 */
export function usageError(io: CliIO, command: string): (problem: string) => number {
  return (problem) => {
    const sentence = /[.?!]$/.test(problem) ? problem : `${problem}.`;
    io.err(`openai4s ${command}: ${sentence} See openai4s ${command} --help.`);
    return 2;
  };
}
