import { readWorkspaceFile, walkWorkspaceFiles } from '../workspace/safeFs';
import { scanSkillFolders, warmSkillReads, type SkillFolder, type SkillReadCache, type SkillScan } from './scan';
import type { Skill, SkillSource } from './skill';

export interface SkillLibraryOptions {
  /** The folders to read, in precedence order (bundled first); read at each call, so Settings changes apply at once. */
  folders(): SkillFolder[];
  /** Names the user switched off: not in the prompt's catalogue, not searchable, not loadable. */
  disabled(): ReadonlySet<string>;
}

export interface SkillHit {
  name: string;
  description: string;
  source: SkillSource;
  score: number;
}

/** What `load_skill` hands the model, and what the run records (name, source, sha256). */
export interface LoadedSkill {
  name: string;
  source: SkillSource;
  sha256: string;
  body: string;
  /** Files beside SKILL.md, relative to the skill folder (readable with read_skill_file). */
  files: string[];
  sidecar: string | null;
}

const MAX_FILES = 200;
const MAX_FILE_BYTES = 512 * 1024;
const LISTING_DESCRIPTION = 110;
/**
 * The prompt's catalogue stops at this many characters (about 750 tokens; the bundled
 * skills take about 1,400): a collection of hundreds of skills dropped into a folder would
 * otherwise go whole into every request. The rest are named by count and found by search.
 */
export const LISTING_CHARS = 3_000;
const PRECEDENCE: Record<SkillSource, number> = { bundled: 0, user: 1, folder: 2 };

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** One line of a skill for the prompt: its description's first sentence, cut to fit. */
function oneLine(description: string): string {
  const first = /^(.+?[.!?])(\s|$)/.exec(description)?.[1] ?? description;
  return first.length > LISTING_DESCRIPTION ? `${first.slice(0, LISTING_DESCRIPTION - 1).trimEnd()}…` : first;
}

export class UnknownSkillError extends Error {}

/**
 * The skills the agent may use: the folders are listed on each call (a SKILL.md is read
 * and parsed again only when it changed), filtered by the user's switches. Progressive disclosure: the prompt carries only
 * `listing()`, the model searches and loads the rest on demand.
 */
export class SkillLibrary {
  /** SKILL.md files already parsed, by path and file identity (see scan.ts). */
  private readonly reads: SkillReadCache = new Map();

  private warming: Promise<void> | null = null;
  private warmTimer: NodeJS.Timeout | null = null;
  private warmed = false;

  constructor(private readonly options: SkillLibraryOptions) {}

  /**
   * Parses the skills not read yet in the background, a skill per turn of the event loop
   * (see scan.ts). Rejects only if the folders cannot be listed (the settings unreadable),
   * as a scan would throw.
   */
  warm(): Promise<void> {
    if (this.warmTimer) clearTimeout(this.warmTimer);
    this.warmTimer = null;
    this.warming ??= Promise.resolve()
      .then(() => warmSkillReads(this.options.folders(), this.reads))
      .finally(() => {
        this.warming = null;
        this.warmed = true;
      });
    return this.warming;
  }

  /** Resolves once the skills have been warmed once (at once after that: later scans only compare file identities). */
  ready(): Promise<void> {
    return this.warmed ? Promise.resolve() : this.warm();
  }

  /**
   * `warm` once the session just opened has been served (its history read and sent), so
   * the first kernel start or request finds the skills parsed; a kernel start sooner
   * than that warms them itself.
   */
  warmSoon(delayMs = 1_000): void {
    if (this.warmTimer || this.warming || this.warmed) return;
    // A failure here is the next scan's to report (it lists the folders again).
    this.warmTimer = setTimeout(() => void this.warm().catch(() => undefined), delayMs);
    this.warmTimer.unref();
  }

  /** Everything found, including switched-off, broken and shadowed skills (the Skills page). */
  scan(): SkillScan {
    return scanSkillFolders(this.options.folders(), this.reads);
  }

  enabled(): Skill[] {
    const off = this.options.disabled();
    return this.scan().skills.filter((s) => !off.has(s.name));
  }

  /** The catalogue in the system prompt: a name and one line per enabled skill. */
  listing(): string {
    const line = (s: Skill) => `- ${s.name}: ${oneLine(s.description)}`;
    const all = this.enabled();
    const whole = all.map(line).join('\n');
    if (whole.length <= LISTING_CHARS) return whole;
    // Over the budget: bundled skills first (reviewed, and what the app's own guidance names), then the user's, then folders'.
    const kept = new Set<Skill>();
    let size = 0;
    for (const s of [...all].sort((a, b) => PRECEDENCE[a.source] - PRECEDENCE[b.source] || a.name.localeCompare(b.name))) {
      if (size + line(s).length + 1 > LISTING_CHARS) break;
      kept.add(s);
      size += line(s).length + 1;
    }
    const rest = all.length - kept.size;
    const more = `- … and ${rest} more enabled skills, not listed here: find them with search_skills(query) (find_tools("skills") offers it).`;
    return [...all.filter((s) => kept.has(s)).map(line), more].join('\n');
  }

  /** Enabled skills matching the query's words, best first (name counts most, then description, then body). */
  search(query: string, limit = 8): SkillHit[] {
    const terms = [...new Set(words(query))];
    if (!terms.length) return [];
    const hits: SkillHit[] = [];
    for (const skill of this.enabled()) {
      const name = words(skill.name.replace(/-/g, ' '));
      const description = words(skill.description);
      const body = words(skill.body);
      let score = 0;
      let matched = 0;
      for (const term of terms) {
        const count = (list: string[]) => list.filter((w) => w === term || (term.length > 3 && w.startsWith(term))).length;
        const s = 5 * count(name) + 3 * Math.min(count(description), 3) + Math.min(count(body), 5);
        if (s > 0) matched++;
        score += s;
      }
      if (score > 0) hits.push({ name: skill.name, description: skill.description, source: skill.source, score: score * (matched / terms.length) });
    }
    return hits.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name)).slice(0, limit);
  }

  /** The enabled skill of that name, or an error listing what exists. */
  get(name: string): Skill {
    const skill = this.enabled().find((s) => s.name === name);
    if (skill) return skill;
    const known = this.enabled().map((s) => s.name);
    throw new UnknownSkillError(`No enabled skill named "${name}". ${known.length ? `Enabled skills: ${known.join(', ')}.` : 'No skill is enabled.'} Use search_skills to find one.`);
  }

  load(name: string): LoadedSkill {
    const skill = this.get(name);
    return { name: skill.name, source: skill.source, sha256: skill.sha256, body: skill.body, files: this.filesOf(skill), sidecar: skill.sidecar };
  }

  /** A text file of the skill's folder (no symlinks, no way out of the folder, at most 512 KiB). */
  readFile(name: string, file: string): { path: string; text: string } {
    const skill = this.get(name);
    const { rel, bytes } = readWorkspaceFile(skill.dir, file, {
      maxBytes: MAX_FILE_BYTES,
      tooBig: (size, at) => new Error(`${at} of skill ${name} is ${size} bytes; read_skill_file returns at most ${MAX_FILE_BYTES} (open it in a cell instead).`),
    });
    if (bytes.includes(0)) throw new Error(`${rel} of skill ${name} is a binary file; use it from a cell (the skill folder is mounted read-only in the kernel).`);
    return { path: rel, text: bytes.toString('utf8') };
  }

  /** Files beside SKILL.md (no dot-files, no symlinks), relative to the skill folder. */
  filesOf(skill: Skill): string[] {
    return walkWorkspaceFiles(skill.dir, '.', MAX_FILES + 1)
      .filter((f) => f !== 'SKILL.md' && !f.split('/').some((part) => part.startsWith('.')))
      .slice(0, MAX_FILES)
      .sort();
  }
}
