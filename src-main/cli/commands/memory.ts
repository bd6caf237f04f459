import type { MemoryRecord, MemoryScope } from '../../../src-preload/contract/memory';
import { MemoryService } from '../../core/memory/memories';
import { planText } from '../../core/memory/plan';
import type { CliCommand } from '../command';
import { stripTerminalControls } from '../terminalText';
import { sessionOptionProblem, usageError } from '../sessionArg';

const USAGE = [
  'openai4s memory list [--session <id>] [--json]',
  '       openai4s memory add "<text>" [--scope session|data_root] [--session <id>] [--json]',
  '       openai4s memory forget <mem_id> [--json]',
  '       openai4s memory plan --session <id> [--json]',
  '',
  "Lists what the agent remembers (a session's memories and the data root's; without --session,",
  "the data root's only), adds one as the user, forgets one, and prints a session's plan.",
  'Keys and passwords are refused.',
].join('\n');


function line(m: MemoryRecord): string {
  const whose = m.origin === 'agent' ? 'agent' : 'user';
  const scope = m.scope === 'session' ? 'session' : 'all sessions';
  return `${m.id}  ${whose.padEnd(5)}  ${scope.padEnd(12)}  ${stripTerminalControls(m.text).replace(/\s+/g, ' ')}${m.editedBy ? ` (edited by ${m.editedBy})` : ''}`;
}

export const memoryCommand: CliCommand = {
  name: 'memory',
  summary: "List, add and forget the agent's memories; print a session's plan",
  usage: USAGE,
  options: { session: { type: 'string' }, scope: { type: 'string' }, json: { type: 'boolean' } },
  needsCore: true,
  async run({ core, values, positionals, io }) {
    const [action, arg, ...extra] = positionals;
    const session = values.session as string | undefined;
    const bad = usageError(io, 'memory');
    const sessionProblem = sessionOptionProblem(session);
    if (sessionProblem) return bad(sessionProblem);
    if (extra.length) return bad(`Unexpected arguments: ${extra.join(' ')}.`);
    const memory = new MemoryService(() => core!.ledger);
    const print = (value: unknown, text: () => void) => (values.json ? io.out(JSON.stringify(value, null, 2)) : text());
    switch (action) {
      case 'list': {
        if (arg) return bad(`"memory list" takes no argument; got "${arg}".`);
        if (session) core!.ledger.sessions.require(session);
        const memories = memory.list(session ?? null);
        print({ memories }, () => io.out(memories.length ? memories.map(line).join('\n') : 'No memories.'));
        return 0;
      }
      case 'add': {
        if (!arg) return bad('"memory add" needs the text to remember.');
        const scope = (values.scope as string | undefined) ?? (session ? 'session' : 'data_root');
        if (scope !== 'session' && scope !== 'data_root') return bad(`--scope is "session" or "data_root"; got "${scope}".`);
        const m = memory.remember({ text: arg, scope: scope as MemoryScope, sessionId: session ?? null, origin: 'user' });
        print(m, () => io.out(line(m)));
        return 0;
      }
      case 'forget': {
        if (!arg) return bad('"memory forget" needs a memory id (memory list shows them).');
        const m = memory.forget(arg, 'user');
        print({ forgotten: m }, () => io.out(`Forgot ${m.id}.`));
        return 0;
      }
      case 'plan': {
        if (!session) return bad('"memory plan" needs --session <id>.');
        core!.ledger.sessions.require(session);
        const steps = core!.ledger.memory.plan(session);
        print({ sessionId: session, steps }, () => io.out(steps.length ? planText(steps) : 'No plan in this session.'));
        return 0;
      }
      default:
        return bad(action ? `Unknown action "${action}".` : 'Name an action: list, add, forget or plan.');
    }
  },
};

