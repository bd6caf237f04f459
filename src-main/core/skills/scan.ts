import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseSkillDocument } from './frontmatter';
import { skillFromDocument, type BrokenSkill, type Skill, type SkillSource } from './skill';
import { errorMessage } from '../shared/errorMessage';

export interface SkillFolder {
  source: SkillSource;
  dir: string;
}

/** A skill that lost a name clash: which one was kept and where the other lives. */
export interface ShadowedSkill {
  name: string;
  kept: { source: SkillSource; dir: string };
  dropped: { source: SkillSource; dir: string };
}

export interface SkillScan {
  skills: Skill[];
  broken: BrokenSkill[];
  shadowed: ShadowedSkill[];
}

export const SKILL_FILE = 'SKILL.md';
const MAX_SKILL_BYTES = 256 * 1024;
const SIDECARS = ['kernel.py', 'kernel.R'];

/** Real sub-directories (no symlinks: a linked folder could expose anything once mounted in the sandbox). */
function subdirs(dir: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    // A missing or unreadable source folder simply contributes no skills.
    return [];
  }
  return entries
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => path.join(dir, e.name))
    .sort();
}

function isRegularFile(file: string): boolean {
  try {
    return fs.lstatSync(file).isFile();
  } catch {
    // Absent (or vanished while scanning): not a file here.
    return false;
  }
}

/**
 * Parsed SKILL.md files by path, each with the identity of the file it was read from
 * (inode, size, change and modification times in nanoseconds). The catalogue is read on
 * every turn and tool call; an unchanged file is not read, hashed or parsed again, and any
 * write to it (or a replacement) changes its identity, so an edit applies at the next call.
 */
export type SkillReadCache = Map<string, { identity: string; read: Skill | BrokenSkill }>;

function identityOf(stat: fs.BigIntStats): string {
  return `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text, or null when they are not UTF-8. */
function utf8Text(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

function readSkill(dir: string, source: SkillSource, cache?: SkillReadCache, seen?: Set<string>): Skill | BrokenSkill {
  const file = path.join(dir, SKILL_FILE);
  try {
    const stat = fs.lstatSync(file, { bigint: true });
    if (!stat.isFile()) return { dir, source, reason: `${SKILL_FILE} is not a regular file (symlinks are not followed)` };
    if (stat.size > MAX_SKILL_BYTES) return { dir, source, reason: `${SKILL_FILE} is ${stat.size} bytes; the limit is ${MAX_SKILL_BYTES} (move long material to references/)` };
    // The sidecar is looked up each time: adding kernel.py does not touch SKILL.md.
    const sidecar = SIDECARS.find((name) => isRegularFile(path.join(dir, name))) ?? null;
    const identity = `${identityOf(stat)}:${source}:${sidecar ?? ''}`;
    seen?.add(file);
    const cached = cache?.get(file);
    if (cached && cached.identity === identity) return cached.read;
    const bytes = fs.readFileSync(file);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const text = utf8Text(bytes);
    // Not UTF-8 (a file saved as Latin-1 or GBK): its name and text would be read with U+FFFD in place of letters.
    const read: Skill | BrokenSkill =
      text === null
        ? { dir, source, reason: `${SKILL_FILE} is not UTF-8 text; save it as UTF-8 (most editors: Save with encoding → UTF-8)` }
        : skillFromDocument(parseSkillDocument(text), { dir, source, sha256, sidecar });
    // Only a read whose bytes match the identity taken before it is cached (a write in between re-reads next time).
    if (cache && identityOf(fs.lstatSync(file, { bigint: true })) === identityOf(stat)) cache.set(file, { identity, read });
    return read;
  } catch (error) {
    return { dir, source, reason: errorMessage(error) };
  }
}

/** The skill folders of a source: each child with SKILL.md, or else its children with one (a collection). */
function* skillDirsIn(dir: string): Generator<string> {
  for (const child of subdirs(dir)) {
    if (fs.existsSync(path.join(child, SKILL_FILE))) yield child;
    else for (const nested of subdirs(child)) if (fs.existsSync(path.join(nested, SKILL_FILE))) yield nested;
  }
}

/**
 * Reads and parses into `cache` the SKILL.md files it does not hold yet, one per turn of
 * the event loop: the first scan after launch (the first kernel start or model request)
 * otherwise parses every skill at once on the main thread (~65-125 ms for the bundled
 * twelve on the bench VM, most of it the YAML parser's first use), and later scans only
 * look at the files' identities.
 */
export async function warmSkillReads(folders: readonly SkillFolder[], cache: SkillReadCache): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve)); // nothing is parsed in the caller's turn
  for (const { source, dir } of folders) {
    for (const skillDir of skillDirsIn(dir)) {
      readSkill(skillDir, source, cache);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}

/**
 * Reads every skill folder of the sources, in order (bundled, user, extra folders): a
 * skill is a folder with SKILL.md; a folder without one is looked into once more, so a
 * published collection (`collection/<skill>/SKILL.md`) dropped in works unchanged. The
 * first skill of a name wins; later ones are reported as shadowed. A malformed skill is
 * listed with its reason and never stops the scan.
 */
export function scanSkillFolders(folders: readonly SkillFolder[], cache?: SkillReadCache): SkillScan {
  const byName = new Map<string, Skill>();
  const broken: BrokenSkill[] = [];
  const shadowed: ShadowedSkill[] = [];
  const seen = new Set<string>();
  const take = (dir: string, source: SkillSource) => {
    const read = readSkill(dir, source, cache, seen);
    if ('reason' in read) return broken.push(read);
    const kept = byName.get(read.name);
    if (kept) return shadowed.push({ name: read.name, kept: { source: kept.source, dir: kept.dir }, dropped: { source, dir } });
    byName.set(read.name, read);
  };
  for (const { source, dir } of folders) for (const skillDir of skillDirsIn(dir)) take(skillDir, source);
  // Files no longer in any folder leave the cache, so it never outgrows the folders.
  if (cache) for (const file of cache.keys()) if (!seen.has(file)) cache.delete(file);
  return { skills: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)), broken, shadowed };
}
