import type { SkillReadiness, SkillView } from '../../../src-preload/contract/skills';
import { skillReadiness, skillsReadiness } from '../../core/environments/skillReadiness';
import type { CliCommand, CliIO } from '../command';
import { sessionOptionProblem, usageError } from '../sessionArg';
import { stripTerminalControls } from '../terminalText';

const USAGE = [
  'openai4s skills [list] [--session <id>] [--json]',
  '       openai4s skills show <name> [--session <id>] [--json]',
  '       openai4s skills enable|disable <name> [--json]',
  '',
  'Lists the skills the agent can load (bundled, yours in <data root>/skills, folders added in',
  'Settings) with their source, whether they are on, and whether the kernel environments have',
  'what each requires (the session’s environments with --session, else the defaults), with the',
  'command that installs what is missing. Folders that could not be read as skills, and skills',
  'hidden by a name clash, are listed after. show prints one skill’s SKILL.md and its files;',
  'enable and disable switch a skill for the next runs, as the Skills page does.',
].join('\n');

/** A skill's own text (SKILL.md is anyone's file): no terminal controls, one line where a line is shown. */
const clean = (text: string) => stripTerminalControls(text).replace(/\s+/g, ' ').trim();

function readinessText(r: SkillReadiness | undefined): string {
  if (!r) return '';
  if (r.ready) return 'ready';
  const missing = r.languages.flatMap((l) => (l.reason ? [`${l.language}: ${l.reason}`] : l.missing.length ? [`${l.language} ${l.missing.join(', ')}`] : []));
  return `missing ${missing.join('; ')}`;
}

function printList(skills: SkillView[], io: CliIO): void {
  const width = Math.max(4, ...skills.map((s) => s.name.length)) + 2;
  for (const s of skills) {
    io.out(`${s.name.padEnd(width)}${s.source.padEnd(9)}${(s.enabled ? 'on' : 'off').padEnd(5)}${readinessText(s.readiness)}`);
    io.out(`${' '.repeat(width)}${clean(s.description).slice(0, 160)}`);
    for (const l of s.readiness?.languages ?? []) if (l.installCommand) io.out(`${' '.repeat(width)}install: ${l.installCommand}`);
  }
}

export const skillsCommand: CliCommand = {
  name: 'skills',
  summary: 'List the skills the agent can load, show one, switch one on or off',
  usage: USAGE,
  options: { session: { type: 'string' }, json: { type: 'boolean' } },
  needsCore: true,
  async run({ core, values, positionals, io }) {
    const [action = 'list', name, ...extra] = positionals;
    const bad = usageError(io, 'skills');
    const sessionProblem = sessionOptionProblem(values.session);
    if (sessionProblem) return bad(sessionProblem);
    const sessionId = typeof values.session === 'string' ? values.session : undefined;
    if (sessionId) core!.ledger.sessions.require(sessionId);
    if (extra.length) return bad(`unexpected arguments: ${extra.join(' ')}.`);
    const catalog = core!.skillCatalog;
    const envs = core!.environments;
    // The catalogue's own refusal sends the user to the app's Skills page; here the list is a command.
    const noSuchSkill = (skill: string) => {
      if (catalog.list().skills.some((s) => s.name === skill)) return null;
      io.err(`openai4s skills: No skill named "${skill}"; openai4s skills lists the installed skills.`);
      return 1;
    };
    switch (action) {
      case 'list': {
        if (name) return bad(`"skills list" takes no argument; got "${name}".`);
        const view = catalog.list();
        const readiness = await skillsReadiness(view.skills, envs, sessionId ? { sessionId } : {});
        const skills = view.skills.map((s) => ({ ...s, readiness: readiness.get(s.name)! }));
        if (values.json) {
          io.out(JSON.stringify({ ...view, skills }, null, 2));
          return 0;
        }
        if (skills.length === 0) io.out(`No skills. Put a skill folder (with SKILL.md) in ${view.userDir}.`);
        printList(skills, io);
        for (const b of view.broken) io.out(`not a readable skill (${b.source}): ${b.dir}: ${clean(b.reason)}`);
        for (const s of view.shadowed) io.out(`hidden: ${s.name} in ${s.dropped.dir} (the ${s.kept.source} skill of that name in ${s.kept.dir} wins)`);
        return 0;
      }
      case 'show': {
        if (!name) return bad('"skills show" needs a skill name; openai4s skills lists them.');
        const missing = noSuchSkill(name);
        if (missing !== null) return missing;
        const detail = catalog.get(name);
        const readiness = await skillReadiness(detail, envs, sessionId ? { sessionId } : {});
        if (values.json) {
          io.out(JSON.stringify({ ...detail, readiness }, null, 2));
          return 0;
        }
        printList([{ ...detail, readiness }], io);
        io.out(`folder: ${detail.dir}`);
        io.out(`files: ${detail.files.length ? detail.files.join(', ') : 'none besides SKILL.md'}`);
        io.out('');
        io.out(stripTerminalControls(detail.body).trim());
        return 0;
      }
      case 'enable':
      case 'disable': {
        if (!name) return bad(`"skills ${action}" needs a skill name; openai4s skills lists them.`);
        const missing = noSuchSkill(name);
        if (missing !== null) return missing;
        const view = catalog.setEnabled(name, action === 'enable');
        const skill = view.skills.find((s) => s.name === name)!;
        if (values.json) io.out(JSON.stringify({ name, enabled: skill.enabled }, null, 2));
        else io.out(`${name} is ${skill.enabled ? 'on' : 'off'}: the next runs ${skill.enabled ? 'may load it' : 'do not see it'}.`);
        return 0;
      }
      default:
        return bad(`unknown skills action "${action}": use list, show, enable or disable.`);
    }
  },
};
