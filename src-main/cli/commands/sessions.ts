import type { SessionSummary } from '../../../src-preload/contract/sessions';
import type { CliCommand } from '../command';
import { stripTerminalControls } from '../terminalText';

export const sessionsCommand: CliCommand = {
  name: 'sessions',
  summary: 'List the sessions of the ledger, newest first',
  usage: 'openai4s sessions [--json]',
  noArguments: true,
  options: { json: { type: 'boolean' } },
  needsCore: true,
  async run({ core, values, io }) {
    const sessions = core!.ledger.sessions.list();
    if (values.json) {
      io.out(JSON.stringify(sessions, null, 2));
      return 0;
    }
    io.out(formatSessions(sessions));
    return 0;
  },
};

export function formatSessions(sessions: SessionSummary[]): string {
  if (!sessions.length) return 'No sessions yet.';
  // A title is the user's (or an import's) text: one line, no terminal controls.
  return sessions.map((s) => `${s.id}  ${s.updatedAt}  ${stripTerminalControls(s.title).replace(/\n/g, ' ')}`).join('\n');
}
