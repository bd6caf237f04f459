import { z } from 'zod';
import { route } from './define';

/** Where a skill comes from: bundled with the app (read-only, wins a clash), the user's folder, or a folder added in Settings. */
export type SkillSourceKind = 'bundled' | 'user' | 'folder';

/** A skill as the Skills page lists it. */
export interface SkillView {
  name: string;
  description: string;
  source: SkillSourceKind;
  dir: string;
  enabled: boolean;
  license: string | null;
  languages: string[];
  requires: { python: string[]; r: string[]; env: string | null };
  sidecar: string | null;
  sha256: string;
}

export interface SkillDetail extends SkillView {
  /** SKILL.md without its frontmatter (Markdown). */
  body: string;
  files: string[];
}

export interface SkillCatalogView {
  skills: SkillView[];
  /** Folders that look like skills but could not be read, with the reason. */
  broken: { dir: string; source: SkillSourceKind; reason: string }[];
  /** Skills that lost a name clash: the kept one and the hidden one. */
  shadowed: { name: string; kept: { source: SkillSourceKind; dir: string }; dropped: { source: SkillSourceKind; dir: string } }[];
  /** Where "new skill" writes (`<data root>/skills`). */
  userDir: string;
}

const skillName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'a skill name is lower-case letters, digits and single hyphens, e.g. "protein-properties"');

export const skillRoutes = {
  'skills.list': route<SkillCatalogView>()(z.object({}).strict().default({})),
  'skills.get': route<SkillDetail>()(z.object({ name: skillName }).strict()),
  'skills.setEnabled': route<SkillCatalogView>()(z.object({ name: skillName, enabled: z.boolean() }).strict()),
  'skills.create': route<SkillDetail>()(
    z.object({ name: skillName, description: z.string().trim().min(1, 'say in one sentence when the skill should be used').max(1024) }).strict(),
  ),
  'skills.reveal': route<{ revealed: boolean; path: string }>()(z.object({ name: skillName }).strict()),
};
