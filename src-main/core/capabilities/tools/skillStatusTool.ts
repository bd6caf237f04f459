import { z } from 'zod';
import type { SkillLanguageReadiness, SkillReadiness } from '../../../../src-preload/contract/skills';
import { readyAlternatives, skillReadiness, type ReadinessEnvironments } from '../../environments/skillReadiness';
import type { SkillLibrary } from '../../skills/library';
import { SKILL_NAME } from '../../skills/skill';
import { defineTool, type Tool } from '../define';

/** One line per language, in words the model can act on: what is missing where, and the two ways out. */
function describeLanguage(l: SkillLanguageReadiness, alternatives: string[]): string {
  if (l.missing.length === 0) return `${l.language}: ready in ${l.environmentId} (${l.present.join(', ')}).`;
  const why = l.reason ? ` (${l.reason})` : '';
  const ways = [
    ...(alternatives.length ? [`switch with env_use to ${alternatives.map((id) => `${id} (ready)`).join(' or ')}`] : []),
    ...(l.installCommand ? [`install: ${l.installCommand}`] : []),
  ];
  return `${l.language}: ${l.missing.join(', ')} missing in ${l.environmentId}${why}${ways.length ? `; ${ways.join(' or ')}` : ''}.`;
}

export function describeReadiness(name: string, readiness: SkillReadiness, alternatives: Record<string, string[]>, preferredEnv: string | null): string {
  if (readiness.languages.length === 0) return `Skill ${name} declares no package requirements: it is ready.`;
  const head = readiness.ready ? `Skill ${name} is ready.` : `Skill ${name} is not ready.`;
  const lines = readiness.languages.map((l) => describeLanguage(l, alternatives[l.language] ?? []));
  const prefers = preferredEnv && !readiness.languages.some((l) => l.environmentId === preferredEnv) ? [`The skill is written for the environment ${preferredEnv}.`] : [];
  return [head, ...lines, ...prefers].join('\n');
}

/**
 * skill_status (issue 17): a skill's declared packages checked against the session's
 * kernel environments, with a ready environment to switch to (env_use) when one exists
 * and the exact command that installs the rest on this platform.
 */
export function skillStatusTool(library: () => SkillLibrary, environments: () => ReadinessEnvironments): Tool {
  return defineTool({
    name: 'skill_status',
    description: "Check whether a skill's required Python/R packages are installed in the session's kernel environments: what is missing, a ready environment to switch to, and the install command.",
    input: z.object({ name: z.string().max(64).regex(SKILL_NAME, 'a skill name is lower-case letters, digits and hyphens') }).strict(),
    sideEffect: 'read',
    defaultPolicy: 'allow',
    onDemand: true,
    resourceKeys: (a) => [`skill:${a.name}`, 'environments'],
    target: (a) => a.name,
    async execute(a, ctx) {
      const skill = library().get(a.name);
      const envs = environments();
      const readiness = await skillReadiness(skill, envs, { sessionId: ctx.sessionId });
      const alternatives: Record<string, string[]> = {};
      for (const l of readiness.languages) {
        if (l.missing.length) alternatives[l.language] = await readyAlternatives(l.language, skill.requires[l.language], l.interpreter, envs);
      }
      return { text: describeReadiness(skill.name, readiness, alternatives, skill.requires.env), output: { skill: skill.name, readiness, alternatives } };
    },
  });
}
