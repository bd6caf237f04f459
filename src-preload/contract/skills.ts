import { z } from 'zod';
import { route } from './define';

/** Where a skill comes from: bundled with the app (read-only, wins a clash), the user's folder, or a folder added in Settings. */
export type SkillSourceKind = 'bundled' | 'user' | 'folder';

/** Whether one language's environment has what a skill requires, and how to get the rest. */
export interface SkillLanguageReadiness {
  language: 'python' | 'r';
  /** The environment checked: the session's current one, else the language's default. */
  environmentId: string;
  interpreter: string | null;
  present: string[];
  missing: string[];
  /** The command that installs the missing packages on this platform; null when nothing is missing. */
  installCommand: string | null;
  /** Why the environment could not be checked (no interpreter, a failed probe); null when it was. */
  reason: string | null;
}

/** A skill's declared requirements checked against the kernel environments (issue 17). */
export interface SkillReadiness {
  ready: boolean;
  languages: SkillLanguageReadiness[];
}

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
  /** Its requirements checked against the session's (or the default) environments; absent when not checked. */
  readiness?: SkillReadiness;
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

/** Whose environments readiness is checked against; absent: the default environments. */
const sessionId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'a session id is 1-128 letters, digits, "_" or "-"');

export const skillRoutes = {
  'skills.list': route<SkillCatalogView>()(z.object({ sessionId: sessionId.optional() }).strict().default({})),
  'skills.get': route<SkillDetail>()(z.object({ name: skillName, sessionId: sessionId.optional() }).strict()),
  'skills.setEnabled': route<SkillCatalogView>()(z.object({ name: skillName, enabled: z.boolean() }).strict()),
  'skills.create': route<SkillDetail>()(
    z.object({ name: skillName, description: z.string().trim().min(1, 'say in one sentence when the skill should be used').max(1024) }).strict(),
  ),
  'skills.reveal': route<{ revealed: boolean; path: string }>()(z.object({ name: skillName }).strict()),
};
