import { z } from 'zod';
import { ENV_ID, ENV_NAME, ENV_NAME_RULE, PACKAGE_SPEC, PACKAGE_SPEC_RULE, type EnvironmentChangeResult, type EnvironmentList } from '../../../../src-preload/contract/environments';
import type { EnvironmentService } from '../../environments/service';
import { defineTool, reasonField, type Tool } from '../define';

type Environments = Pick<EnvironmentService, 'list' | 'use' | 'create' | 'rollback'>;

/** One line per environment: what the model needs to choose (id, readiness, what is missing). */
export function describeList(list: EnvironmentList): string {
  const lines = list.environments.map((e) => {
    const state = e.ready ? 'ready' : e.version === null ? `unusable (${e.reason ?? 'no interpreter'})` : `missing ${e.missing.join(', ')}`;
    const install = !e.ready && e.installCommand ? `; install: ${e.installCommand}` : '';
    return `- ${e.id} [${e.language}${e.version ? ` ${e.version}` : ''}] ${state}${install}`;
  });
  const current = Object.entries(list.current).map(([language, c]) => `${language}: ${c.environmentId}${c.isDefault ? ' (default)' : ''}`);
  return [`Current: ${current.join('; ')}`, 'Environments:', ...lines].join('\n');
}

function describeChange(result: EnvironmentChangeResult): string {
  const c = result.change;
  const ended = result.endedGeneration ? ` Generation ${result.endedGeneration.slice(0, 8)} ended; its variables are gone.` : '';
  return `The session's ${c.language} environment is now ${c.environmentId} (${c.interpreter}); the next ${c.language} cell starts a new kernel generation in it.${ended}${c.detail ? ` (${c.detail})` : ''}`;
}

/**
 * Scientific environments as tools (issue 18), all on demand (find_tools): listing,
 * switching, building (asks first: it runs pip or conda on the host) and rolling back.
 * Cells cannot call them (no host methods): switching restarts the cell's own kernel.
 */
export function environmentTools(environments: () => Environments): Tool[] {
  const list = defineTool({
    name: 'env_list',
    description: 'List the Python and R environments this machine has (declared, virtualenvs, conda, pyenv, R installations): readiness, missing packages, the install command, and the session\'s current one per language.',
    input: z.object({}).strict(),
    sideEffect: 'read',
    defaultPolicy: 'allow',
    onDemand: true,
    resourceKeys: () => ['environments'],
    target: () => 'environments',
    async execute(_a, ctx) {
      const result = await environments().list(ctx.sessionId);
      return { text: describeList(result), output: result };
    },
  });
  const use = defineTool({
    name: 'env_use',
    description: 'Switch the session\'s kernel of that language to another environment (an id from env_list). Ends the running kernel: variables are lost; the next cell starts fresh in the new environment.',
    input: z.object({ environment: z.string().regex(ENV_ID), reason: reasonField }).strict(),
    sideEffect: 'exec',
    defaultPolicy: 'allow',
    onDemand: true,
    resourceKeys: () => ['environments'],
    target: (a) => a.environment,
    async execute(a, ctx) {
      const result = await environments().use(ctx.sessionId, a.environment);
      return { text: describeChange(result), output: result };
    },
  });
  const create = defineTool({
    name: 'env_create',
    description:
      'Build a new environment from a declaration (python-science, r-bioc, ...) on the host: a virtualenv over the system interpreter (works offline, sees its packages) or a conda environment, optionally with extra pip/conda packages. The session switches to it only if the build and its probe succeed.',
    input: z
      .object({
        name: z.string().regex(ENV_NAME, `a name is ${ENV_NAME_RULE}`),
        declaration: z.string().regex(/^[a-z0-9-]{1,64}$/),
        kind: z.enum(['venv', 'conda']).optional().describe('Default: venv for Python, conda for R.'),
        packages: z.array(z.string().max(100).regex(PACKAGE_SPEC, PACKAGE_SPEC_RULE)).max(50).optional().describe('Extra packages to install (needs the network): requirements such as "six" or "numpy>=1.26", never pip options.'),
        reason: reasonField,
      })
      .strict(),
    sideEffect: 'exec',
    defaultPolicy: 'ask',
    onDemand: true,
    resourceKeys: (a) => ['environments', `env:${a.name}`],
    target: (a) => `${a.kind ?? 'venv'}:${a.name} from ${a.declaration}${a.packages?.length ? ` + ${a.packages.join(' ')}` : ''}`,
    async execute(a, ctx) {
      const result = await environments().create(ctx.sessionId, { name: a.name, declaration: a.declaration, kind: a.kind, packages: a.packages });
      return { text: describeChange(result), output: result };
    },
  });
  const rollback = defineTool({
    name: 'env_rollback',
    description: 'Move the session\'s environment for a language back to the one before the current one (no rebuild). Ends the running kernel of that language.',
    input: z.object({ language: z.enum(['python', 'r']), reason: reasonField }).strict(),
    sideEffect: 'exec',
    defaultPolicy: 'allow',
    onDemand: true,
    resourceKeys: () => ['environments'],
    target: (a) => a.language,
    async execute(a, ctx) {
      const result = await environments().rollback(ctx.sessionId, a.language);
      return { text: describeChange(result), output: result };
    },
  });
  return [list, use, create, rollback];
}
