import type { CliCommand } from '../command';
import { sessionArgProblem, usageError } from '../sessionArg';

const USAGE = 'openai4s artifacts <sessionId> [--json]\n\nLists the session\'s artifacts: every version with its sha256, size, producer and kernel environment.';

export const artifactsCommand: CliCommand = {
  name: 'artifacts',
  summary: "List a session's versioned artifacts with their provenance",
  usage: USAGE,
  options: { json: { type: 'boolean' } },
  needsCore: true,
  async run({ core, values, positionals, io }) {
    const problem = sessionArgProblem('artifacts', positionals);
    if (problem) return usageError(io, 'artifacts')(problem);
    const sessionId = positionals[0]!;
    core!.ledger.sessions.require(sessionId); // a mistyped id is an error, not "no artifacts"
    const artifacts = core!.provenance.artifacts;
    const list = artifacts.list(sessionId).map((a) => ({ ...a, history: artifacts.versions(a.id) }));
    if (values.json) {
      io.out(JSON.stringify(list, null, 2));
      return 0;
    }
    if (!list.length) {
      io.out(`No artifacts in session ${sessionId}.`);
      return 0;
    }
    for (const a of list) {
      io.out(`${a.path}  (${a.id}, ${a.versions} version${a.versions === 1 ? '' : 's'})`);
      for (const v of a.history) {
        const p = v.provenance;
        const by = p.producer.kind === 'cell' ? `cell ${p.producer.cellId} (${p.producer.language}, generation ${p.producer.generation.slice(0, 8)})` : p.producer.kind === 'tool' ? `tool ${p.producer.tool}` : p.producer.kind === 'job' ? `job ${p.producer.jobId} on ${p.producer.target} (${p.producer.state}, exit ${p.producer.exitCode ?? '?'})` : 'user';
        const env =
          p.environment.status === 'recorded'
            ? `${p.environment.interpreterVersion}; ${p.environment.packages.map((x) => `${x.name} ${x.version ?? 'missing'}`).join(', ')}`
            : `environment unknown: ${p.environment.reason}`;
        io.out(`  v${v.number} ${v.id}  ${v.createdAt}  ${v.size} B  ${v.mime}  sha256=${v.sha256}\n     by ${by}; ${env}; evidence ${v.evidenceId}`);
      }
    }
    return 0;
  },
};
