import { z } from 'zod';
import type { SkillLibrary } from '../../skills/library';
import { SKILL_NAME } from '../../skills/skill';
import { defineTool, type Tool } from '../define';

const skillName = z.string().max(64).regex(SKILL_NAME, 'a skill name is lower-case letters, digits and hyphens');

/**
 * Skills as tools (issue 17). load_skill is offered from the start (the prompt lists the
 * enabled skills by name); search_skills and read_skill_file are found on demand, and
 * loading a skill offers read_skill_file at once (its answer lists the files to read).
 * A cell reaches the same through host.skills.search / load / read_file.
 */
export function skillTools(library: () => SkillLibrary, disclose: (runId: string, names: string[]) => void): Tool[] {
  const searchSkills = defineTool({
    name: 'search_skills',
    description: 'Search the enabled skills (recipes) by words over their names, descriptions and text.',
    input: z.object({ query: z.string().min(1).max(200), limit: z.number().int().min(1).max(20).default(8) }).strict(),
    sideEffect: 'read',
    defaultPolicy: 'allow',
    onDemand: true,
    hostMethods: ['skills.search'],
    resourceKeys: () => [],
    target: (a) => a.query,
    async execute(a) {
      const hits = library().search(a.query, a.limit);
      const text = hits.length ? hits.map((h) => `- ${h.name} (${h.source}): ${h.description}`).join('\n') : `No enabled skill matches "${a.query}".`;
      return { text, output: { query: a.query, skills: hits } };
    },
  });
  const loadSkill = defineTool({
    name: 'load_skill',
    description: 'Load a skill (a recipe listed under "Skills") by name: returns its instructions and the files beside it.',
    input: z.object({ name: skillName }).strict(),
    sideEffect: 'read',
    defaultPolicy: 'allow',
    hostMethods: ['skills.load'],
    resourceKeys: (a) => [`skill:${a.name}`],
    target: (a) => a.name,
    async execute(a, ctx) {
      const skill = library().load(a.name);
      if (ctx.runId && skill.files.length) disclose(ctx.runId, ['read_skill_file']);
      const files = skill.files.length ? `\n\nFiles (read_skill_file; in cells under /opt/openai4s/skills/${skill.name}/):\n${skill.files.map((f) => `- ${f}`).join('\n')}` : '';
      const sidecar = skill.sidecar ? `\nSidecar: ${skill.sidecar} (in a cell: mod = host.skills.sidecar("${skill.name}")).` : '';
      return {
        text: `# Skill ${skill.name} (${skill.source}, sha256 ${skill.sha256.slice(0, 12)})\n\n${skill.body.trim()}${files}${sidecar}`,
        // The run records which skill text the agent followed: name, source and its hash.
        output: { skill: { name: skill.name, source: skill.source, sha256: skill.sha256, sidecar: skill.sidecar }, files: skill.files },
      };
    },
  });
  const readSkillFile = defineTool({
    name: 'read_skill_file',
    description: 'Read a text file of a loaded skill (scripts/, references/, templates).',
    input: z.object({ name: skillName, path: z.string().min(1).max(300) }).strict(),
    sideEffect: 'read',
    defaultPolicy: 'allow',
    onDemand: true,
    hostMethods: ['skills.read_file'],
    resourceKeys: (a) => [`skill:${a.name}`],
    target: (a) => `${a.name}/${a.path}`,
    async execute(a) {
      const file = library().readFile(a.name, a.path);
      return { text: file.text, output: { skill: a.name, path: file.path, bytes: Buffer.byteLength(file.text) } };
    },
  });
  return [searchSkills, loadSkill, readSkillFile];
}
