import { z } from 'zod';
import type { SkillDocument } from './frontmatter';

/** Where a skill comes from; a bundled skill wins a name clash (it is read-only and reviewed). */
export type SkillSource = 'bundled' | 'user' | 'folder';

/** What a skill says it needs from the kernel environment (checked by readiness, never trusted to run). */
export interface SkillRequirements {
  python: string[];
  r: string[];
  env: string | null;
}

export interface Skill {
  name: string;
  description: string;
  source: SkillSource;
  /** The skill's folder on the host. */
  dir: string;
  license: string | null;
  allowedTools: string[];
  languages: string[];
  requires: SkillRequirements;
  /** `kernel.py` or `kernel.R` beside SKILL.md, if any. */
  sidecar: string | null;
  /** sha256 of SKILL.md's bytes: what a run records when it loads the skill. */
  sha256: string;
  body: string;
}

/** A folder that looked like a skill but could not be read; listed, never loaded. */
export interface BrokenSkill {
  dir: string;
  source: SkillSource;
  reason: string;
}

/** The Agent Skills name rule: lower-case letters, digits and single hyphens, at most 64. */
export const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_DESCRIPTION = 1024;

const stringList = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : v.split(/[,\s]+/).filter(Boolean)));

const frontmatter = z
  .object({
    name: z.string().trim().min(1).max(64).regex(SKILL_NAME, 'name must be lower-case letters, digits and hyphens (e.g. "protein-properties")'),
    // `summary` is the reference system's spelling of `description`.
    description: z.string().trim().min(1).max(MAX_DESCRIPTION).optional(),
    summary: z.string().trim().min(1).max(MAX_DESCRIPTION).optional(),
    license: z.string().max(200).optional(),
    'allowed-tools': stringList.optional(),
    metadata: z
      .object({
        requires: z
          .object({ python: stringList.optional(), r: stringList.optional(), env: z.string().max(100).optional() })
          .partial()
          .optional(),
        languages: stringList.optional(),
      })
      .passthrough()
      .optional(),
  })
  .passthrough();

/** Validates a parsed SKILL.md; throws an Error whose message is the reason shown to the user. */
export function skillFromDocument(doc: SkillDocument, at: { dir: string; source: SkillSource; sha256: string; sidecar: string | null }): Skill {
  const parsed = frontmatter.safeParse(doc.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`frontmatter ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const fm = parsed.data;
  const description = fm.description ?? fm.summary;
  if (!description) throw new Error('frontmatter needs a "description" (or "summary") saying when to use the skill');
  const requires = fm.metadata?.requires ?? {};
  return {
    name: fm.name,
    description: description.replace(/\s+/g, ' '),
    source: at.source,
    dir: at.dir,
    license: fm.license ?? null,
    allowedTools: fm['allowed-tools'] ?? [],
    languages: fm.metadata?.languages ?? [],
    requires: { python: requires.python ?? [], r: requires.r ?? [], env: requires.env ?? null },
    sidecar: at.sidecar,
    sha256: at.sha256,
    body: doc.body,
  };
}
