import type { EnvironmentChangeResult, EnvironmentList } from '../../../src-preload/contract/environments';
import type { CliCommand, CliIO } from '../command';
import { sessionOptionProblem, usageError } from '../sessionArg';

const USAGE = [
  'openai4s env list [--session <id>] [--json]',
  '       openai4s env use <environment> --session <id> [--json]',
  '       openai4s env create <name> --from <declaration> --session <id> [--kind venv|conda] [--packages a,b] [--json]',
  '       openai4s env rollback <python|r> --session <id> [--json]',
  '',
  'Lists the Python and R environments of this machine (declared in envs/, virtualenvs and conda',
  'environments, pyenv versions, R installations) with readiness and the install command; switches',
  "a session's kernel to one (its next cell starts a new generation); builds one from a declaration",
  '(host-side; the session switches only if the build succeeds); moves the pointer back.',
].join('\n');


function printList(list: EnvironmentList, io: CliIO): void {
  for (const e of list.environments) {
    const state = e.ready ? 'ready' : e.version === null ? `unusable: ${e.reason ?? 'no interpreter'}` : `missing ${e.missing.join(', ')}`;
    io.out(`${e.id.padEnd(28)} ${e.language.padEnd(6)} ${(e.version ?? '-').padEnd(8)} ${state}`);
    if (e.interpreter) io.out(`  ${e.interpreter}`);
    if (!e.ready && e.installCommand) io.out(`  install: ${e.installCommand}`);
  }
  if (list.sessionId) {
    io.out(`\nSession ${list.sessionId}: python ${list.current.python.environmentId}${list.current.python.isDefault ? ' (default)' : ''}, r ${list.current.r.environmentId}${list.current.r.isDefault ? ' (default)' : ''}`);
    for (const c of list.history) io.out(`  #${c.seq} ${c.at} ${c.action} ${c.language} ${c.environmentId} ${c.status}${c.failedStep ? ` at "${c.failedStep}": ${c.detail}` : ''}`);
  }
}

function printChange(result: EnvironmentChangeResult, io: CliIO): void {
  const c = result.change;
  io.out(`${c.action}: the session's ${c.language} environment is now ${c.environmentId} (${c.interpreter}); was ${c.previousEnvironmentId ?? 'the default'}.`);
  if (result.endedGeneration) io.out(`Kernel generation ${result.endedGeneration.slice(0, 8)} ended; the next ${c.language} cell starts a new one.`);
}

export const envCommand: CliCommand = {
  name: 'env',
  summary: 'List, switch, build and roll back kernel environments (Python and R)',
  usage: USAGE,
  options: {
    session: { type: 'string' },
    from: { type: 'string' },
    kind: { type: 'string' },
    packages: { type: 'string' },
    json: { type: 'boolean' },
  },
  needsCore: true,
  async run({ core, values, positionals, io }) {
    const [action, arg, ...extra] = positionals;
    const session = values.session as string | undefined;
    const bad = usageError(io, 'env');
    const sessionProblem = sessionOptionProblem(session);
    if (sessionProblem) return bad(sessionProblem);
    if (extra.length) return bad(`Unexpected arguments: ${extra.join(' ')}.`);
    const environments = core!.environments;
    const emit = (result: EnvironmentChangeResult) => (values.json ? io.out(JSON.stringify(result, null, 2)) : printChange(result, io));
    switch (action) {
      case 'list': {
        if (arg) return bad(`env list takes no argument; got "${arg}".`);
        const list = await environments.list(session);
        if (values.json) io.out(JSON.stringify(list, null, 2));
        else printList(list, io);
        return 0;
      }
      case 'use':
        if (!arg || !session) return bad('env use needs an environment id (see openai4s env list) and --session <id>.');
        emit(await environments.use(session, arg));
        return 0;
      case 'create': {
        const from = values.from as string | undefined;
        if (!arg || !session || !from) return bad('env create needs a name, --from <declaration> (e.g. python-science) and --session <id>.');
        const kind = values.kind as string | undefined;
        if (kind !== undefined && kind !== 'venv' && kind !== 'conda') return bad(`--kind is venv or conda; got "${kind}".`);
        const packages = ((values.packages as string | undefined) ?? '').split(',').map((p) => p.trim()).filter(Boolean);
        emit(await environments.create(session, { name: arg, declaration: from, kind, packages }));
        return 0;
      }
      case 'rollback':
        if ((arg !== 'python' && arg !== 'r') || !session) return bad('env rollback needs a language (python or r) and --session <id>.');
        emit(await environments.rollback(session, arg));
        return 0;
      default:
        return bad(action ? `Unknown env action "${action}": use list, use, create or rollback.` : 'env needs an action: list, use, create or rollback.');
    }
  },
};
