import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../src-preload/contract/errors';
import type { SkillCatalogView, SkillDetail, SkillView } from '../../../src-preload/contract/skills';
import { writeWorkspaceFile } from '../workspace/safeFs';
import type { SkillLibrary } from './library';
import { SKILL_FILE } from './scan';
import type { Skill } from './skill';

export interface SkillCatalogDeps {
  library: SkillLibrary;
  /** `<data root>/skills`: where "new skill" writes. */
  userDir: string;
  disabled(): readonly string[];
  setDisabled(names: string[]): void;
}

function view(skill: Skill, enabled: boolean): SkillView {
  const { body: _body, ...rest } = skill;
  return { ...rest, enabled };
}

/** The Skills page's view of the library: every skill with its switch, broken and shadowed ones, and "new skill". */
export class SkillCatalog {
  constructor(private readonly deps: SkillCatalogDeps) {}

  list(): SkillCatalogView {
    const scan = this.deps.library.scan();
    const off = new Set(this.deps.disabled());
    return { skills: scan.skills.map((s) => view(s, !off.has(s.name))), broken: scan.broken, shadowed: scan.shadowed, userDir: this.deps.userDir };
  }

  get(name: string): SkillDetail {
    const skill = this.find(name);
    const enabled = !this.deps.disabled().includes(name);
    return { ...view(skill, enabled), body: skill.body, files: this.deps.library.filesOf(skill) };
  }

  setEnabled(name: string, enabled: boolean): SkillCatalogView {
    this.find(name);
    const others = this.deps.disabled().filter((n) => n !== name);
    this.deps.setDisabled(enabled ? others : [...others, name].sort());
    return this.list();
  }

  /** Writes a new skill from the template into the user folder; never over an existing one. */
  create(name: string, description: string): SkillDetail {
    if (this.deps.library.scan().skills.some((s) => s.name === name)) {
      throw new AppError('conflict', `A skill named "${name}" already exists; choose another name.`);
    }
    fs.mkdirSync(this.deps.userDir, { recursive: true });
    const text = `---\nname: ${name}\ndescription: ${JSON.stringify(description.replace(/\s+/g, ' '))}\nlicense: MIT\nmetadata:\n  languages: [python]\n---\n\n# ${name}\n\nWhen to use this skill, in one or two sentences.\n\n## Steps\n\n1. Retrieve what you need with science_search and keep the evidence ids.\n2. Compute in a cell; save figures with host.save_artifact.\n3. Finish with finalize_response, citing the evidence of each claim.\n`;
    try {
      writeWorkspaceFile(this.deps.userDir, `${name}/${SKILL_FILE}`, text, { exclusive: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new AppError('conflict', `${path.join(this.deps.userDir, name)} already has a ${SKILL_FILE}; choose another name.`);
      throw error;
    }
    return this.get(name);
  }

  dirOf(name: string): string {
    return this.find(name).dir;
  }

  private find(name: string): Skill {
    const skill = this.deps.library.scan().skills.find((s) => s.name === name);
    if (!skill) throw new AppError('not_found', `No skill named "${name}". Open the Skills page to see the installed skills.`);
    return skill;
  }
}
