import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SkillLibrary } from '../../../src-main/core/skills/library';
import type { SkillFolder } from '../../../src-main/core/skills/scan';

const roots: string[] = [];
afterEach(() => {
  for (const dir of roots.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-skills-'));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

function library(folders: SkillFolder[], disabled: string[] = []) {
  return new SkillLibrary({ folders: () => folders, disabled: () => new Set(disabled) });
}

// Written the way skill collections for other agents are: only name and description, scripts/ and references/.
const THIRD_PARTY = {
  'pdf-tables/SKILL.md': '---\nname: pdf-tables\ndescription: Extract tables from PDF files into CSV. Use when a paper or report has tabular data you need to analyse.\n---\n\n# PDF tables\n\nRun `python scripts/extract.py input.pdf` and read references/formats.md for edge cases.\n',
  'pdf-tables/scripts/extract.py': 'import sys\nprint("extracting", sys.argv[1])\n',
  'pdf-tables/references/formats.md': '# Formats\nMerged cells are split.\n',
};

describe('skills: scanning folders', () => {
  it('reads a third-party skill folder unchanged: listed, searchable, loadable, its scripts readable', () => {
    const user = tree(THIRD_PARTY);
    const lib = library([{ source: 'user', dir: user }]);
    expect(lib.listing()).toBe('- pdf-tables: Extract tables from PDF files into CSV.');
    expect(lib.search('tables in a pdf report').map((h) => h.name)).toEqual(['pdf-tables']);
    const loaded = lib.load('pdf-tables');
    expect(loaded).toMatchObject({ name: 'pdf-tables', source: 'user', sidecar: null, files: ['references/formats.md', 'scripts/extract.py'] });
    expect(loaded.body).toContain('# PDF tables');
    expect(loaded.sha256).toBe(createHash('sha256').update(fs.readFileSync(path.join(user, 'pdf-tables/SKILL.md'))).digest('hex'));
    expect(lib.readFile('pdf-tables', 'scripts/extract.py').text).toContain('extracting');
  });

  it('accepts the reference system\'s `summary`, metadata requirements and a kernel sidecar', () => {
    const dir = tree({
      'insulin-quicklook/SKILL.md': '---\nname: insulin-quicklook\nsummary: Fetch the insulin record and plot its sequence length.\nmetadata:\n  requires:\n    python: [numpy, matplotlib]\n    env: python-science\n  languages: [python]\n---\nSteps.\n',
      'insulin-quicklook/kernel.py': 'def length(seq):\n    return len(seq)\n',
    });
    const [skill] = library([{ source: 'bundled', dir }]).scan().skills;
    expect(skill).toMatchObject({ name: 'insulin-quicklook', description: 'Fetch the insulin record and plot its sequence length.', sidecar: 'kernel.py', languages: ['python'], requires: { python: ['numpy', 'matplotlib'], r: [], env: 'python-science' } });
  });

  it('finds skills one level down (a collection folder dropped in as a whole)', () => {
    const user = tree(Object.fromEntries(Object.entries(THIRD_PARTY).map(([k, v]) => [`some-collection/${k}`, v])));
    expect(library([{ source: 'user', dir: user }]).scan().skills.map((s) => s.name)).toEqual(['pdf-tables']);
  });

  it('lists malformed skills with a reason and keeps the others', () => {
    const dir = tree({
      ...THIRD_PARTY,
      'no-frontmatter/SKILL.md': '# Just markdown\n',
      'bad-yaml/SKILL.md': '---\nname: [unclosed\n---\nbody\n',
      'bad-name/SKILL.md': '---\nname: Bad Name\ndescription: x\n---\n',
      'no-description/SKILL.md': '---\nname: no-description\n---\n',
      'bomb/SKILL.md': `---\na: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nname: bomb\ndescription: y\n---\n`,
    });
    const scan = library([{ source: 'folder', dir }]).scan();
    expect(scan.skills.map((s) => s.name)).toEqual(['pdf-tables']);
    const reasons = Object.fromEntries(scan.broken.map((b) => [path.basename(b.dir), b.reason]));
    expect(reasons['no-frontmatter']).toMatch(/must start with a YAML frontmatter/);
    expect(reasons['bad-yaml']).toMatch(/not valid YAML/);
    expect(reasons['bad-name']).toMatch(/frontmatter name: name must be lower-case/);
    expect(reasons['no-description']).toMatch(/needs a "description"/);
    expect(reasons.bomb).toMatch(/alias/i);
  });

  it('a bundled skill wins a name clash and the user skill is reported as shadowed', () => {
    const bundled = tree(THIRD_PARTY);
    const user = tree({ 'my-copy/SKILL.md': '---\nname: pdf-tables\ndescription: My own version.\n---\n' });
    const scan = library([{ source: 'bundled', dir: bundled }, { source: 'user', dir: user }]).scan();
    expect(scan.skills).toHaveLength(1);
    expect(scan.skills[0]!.source).toBe('bundled');
    expect(scan.shadowed).toEqual([{ name: 'pdf-tables', kept: { source: 'bundled', dir: path.join(bundled, 'pdf-tables') }, dropped: { source: 'user', dir: path.join(user, 'my-copy') } }]);
  });

  it('a switched-off skill leaves the listing, the search and loading', () => {
    const lib = library([{ source: 'user', dir: tree(THIRD_PARTY) }], ['pdf-tables']);
    expect(lib.listing()).toBe('');
    expect(lib.search('pdf')).toEqual([]);
    expect(() => lib.load('pdf-tables')).toThrow(/No enabled skill named "pdf-tables"\. No skill is enabled\./);
  });
});

describe('skills: reading files stays inside the skill folder', () => {
  it('refuses "..", absolute paths and symlinks', () => {
    const dir = tree({ ...THIRD_PARTY, 'secret.txt': 'host secret' });
    fs.symlinkSync(path.join(dir, 'secret.txt'), path.join(dir, 'pdf-tables/references/link.md'));
    const lib = library([{ source: 'user', dir }]);
    expect(() => lib.readFile('pdf-tables', '../secret.txt')).toThrow();
    expect(() => lib.readFile('pdf-tables', path.join(dir, 'secret.txt'))).toThrow();
    expect(() => lib.readFile('pdf-tables', 'references/link.md')).toThrow();
    expect(lib.load('pdf-tables').files).not.toContain('references/link.md');
  });

  it('does not take a symlinked skill folder or a symlinked SKILL.md', () => {
    const outside = tree(THIRD_PARTY);
    const dir = tree({ 'real/SKILL.md': '---\nname: real\ndescription: Real.\n---\n' });
    fs.symlinkSync(path.join(outside, 'pdf-tables'), path.join(dir, 'linked'));
    fs.mkdirSync(path.join(dir, 'md-link'));
    fs.symlinkSync(path.join(outside, 'pdf-tables/SKILL.md'), path.join(dir, 'md-link/SKILL.md'));
    const scan = library([{ source: 'user', dir }]).scan();
    expect(scan.skills.map((s) => s.name)).toEqual(['real']);
    expect(scan.broken.map((b) => b.reason)).toEqual(['SKILL.md is not a regular file (symlinks are not followed)']);
  });
});

describe('skills: the parsed-file cache', () => {
  it('parses an unchanged SKILL.md once, and sees an edit of the same size, a new sidecar and a removal at the next call', () => {
    const doc = (word: string) => `---\nname: cached\ndescription: Cache test ${word}.\n---\n\nBody ${word}.\n`;
    const user = tree({ 'cached/SKILL.md': doc('alpha') });
    const lib = library([{ source: 'user', dir: user }]);
    const first = lib.get('cached');
    // Unchanged: the very same parsed object (not read, hashed or parsed again).
    expect(lib.get('cached')).toBe(first);
    expect(lib.listing()).toBe('- cached: Cache test alpha.');

    // An edit that keeps the size (a byte-for-byte different file, same length) is seen.
    const file = path.join(user, 'cached/SKILL.md');
    fs.writeFileSync(file, doc('gamma'));
    const edited = lib.get('cached');
    expect(edited).not.toBe(first);
    expect(edited.description).toBe('Cache test gamma.');
    expect(edited.sha256).toBe(createHash('sha256').update(fs.readFileSync(file)).digest('hex'));

    // A sidecar added beside an untouched SKILL.md is seen too.
    fs.writeFileSync(path.join(user, 'cached/kernel.py'), 'X = 1\n');
    expect(lib.load('cached').sidecar).toBe('kernel.py');

    // Removed: gone from the library at once.
    fs.rmSync(path.join(user, 'cached'), { recursive: true });
    expect(() => lib.get('cached')).toThrow(/No enabled skill named "cached"/);
  });
});

describe('skills: warmed in the background', () => {
  it('ready() parses them in turns of the event loop once; later it resolves at once and scans find them parsed', async () => {
    const user = tree(THIRD_PARTY);
    let listed = 0;
    const lib = new SkillLibrary({ folders: () => (listed++, [{ source: 'user', dir: user }]), disabled: () => new Set() });
    const warming = lib.ready();
    expect(listed).toBe(0); // nothing is read in the caller's turn
    await warming;
    expect(listed).toBe(1);
    await lib.ready();
    expect(listed).toBe(1);
    lib.warmSoon(1); // already warm: nothing scheduled
    await new Promise((r) => setTimeout(r, 20));
    expect(listed).toBe(1);
    expect(lib.enabled().map((s) => s.name)).toEqual(['pdf-tables']);
  });

  it('a warm-up whose folders cannot be listed rejects; warmSoon leaves it to the next scan to report', async () => {
    const unreadable = () => new SkillLibrary({ folders: () => { throw new Error('settings unreadable'); }, disabled: () => new Set() });
    const lib = unreadable();
    lib.warmSoon(1);
    await new Promise((r) => setTimeout(r, 20)); // no unhandled rejection
    expect(() => lib.scan()).toThrow('settings unreadable');
    await expect(unreadable().ready()).rejects.toThrow('settings unreadable');
  });
});
