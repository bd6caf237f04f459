import fs from 'node:fs';
import path from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { SkillLibrary } from '../../../src-main/core/skills/library';

const BUNDLED = path.resolve(__dirname, '../../../skills');
const library = new SkillLibrary({ folders: () => [{ source: 'bundled', dir: BUNDLED }], disabled: () => new Set() });

describe('the bundled skill library', () => {
  const scan = library.scan();

  it('every bundled skill parses: none broken, none shadowed, at least twelve', () => {
    expect(scan.broken).toEqual([]);
    expect(scan.shadowed).toEqual([]);
    expect(scan.skills.length).toBeGreaterThanOrEqual(12);
    // Every folder with a SKILL.md is a skill (none silently skipped).
    const folders = fs.readdirSync(BUNDLED).filter((f) => fs.existsSync(path.join(BUNDLED, f, 'SKILL.md')));
    expect(scan.skills.map((s) => path.basename(s.dir)).sort()).toEqual(folders.sort());
  });

  it('each is ours and complete: name = folder, MIT, declared requirements and languages, a sidecar, a worked example on data in its folder', () => {
    for (const skill of scan.skills) {
      expect(path.basename(skill.dir), skill.name).toBe(skill.name);
      expect(skill.license, skill.name).toBe('MIT');
      expect(skill.languages.length, skill.name).toBeGreaterThan(0);
      expect(skill.sidecar, skill.name).toBe(skill.languages.includes('python') ? 'kernel.py' : 'kernel.R');
      expect(skill.body, skill.name).toMatch(/## Worked example/);
      const data = path.join(skill.dir, 'data');
      expect(fs.readdirSync(data).length, `${skill.name} ships its example data`).toBeGreaterThan(0);
      const declared = [...skill.requires.python, ...skill.requires.r];
      if (skill.name !== 'literature-review') expect(declared.length, skill.name).toBeGreaterThan(0);
    }
  });

  it('each description starts with one clear sentence of at most 110 characters (what the listing shows)', () => {
    for (const skill of scan.skills) {
      const first = /^(.+?[.!?])(\s|$)/.exec(skill.description)?.[1];
      expect(first, skill.name).toBeDefined();
      expect(first!.length, `${skill.name}: ${first}`).toBeLessThanOrEqual(110);
      expect(library.listing()).toContain(`- ${skill.name}: ${first}`);
    }
  });

  it('the catalogue in the system prompt costs at most 600 tokens (o200k_base)', () => {
    expect(encode(library.listing()).length).toBeLessThanOrEqual(600);
  });
});
