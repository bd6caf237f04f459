import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliIn } from '../../support/cliInProcess';

// `openai4s skills`: the Skills page for the command line (list with source, switch and
// readiness; show; enable and disable), JSON with --json, one-line errors.

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-cli-skills-'));
  const mine = path.join(dir, 'skills', 'my-recipe');
  fs.mkdirSync(path.join(mine, 'scripts'), { recursive: true });
  fs.writeFileSync(path.join(mine, 'SKILL.md'), '---\nname: my-recipe\ndescription: "Count \\u001b[31mreads\\u001b[0m per gene."\n---\n\n# My recipe\n\nRun scripts/count.py.\n');
  fs.writeFileSync(path.join(mine, 'scripts', 'count.py'), 'print(1)\n');
  fs.mkdirSync(path.join(dir, 'skills', 'broken-one'));
  fs.writeFileSync(path.join(dir, 'skills', 'broken-one', 'SKILL.md'), '---\nname: [unclosed\n');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[]) => runCliIn(dir, args);

describe('openai4s skills', () => {
  it('lists bundled and user skills with source and switch, a broken folder after them, and the same as JSON', async () => {
    const text = await cli(['skills']);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^protein-properties +bundled +on +/m);
    expect(text.out).toMatch(/^my-recipe +user +on +/m);
    // A skill's own text reaches the terminal without its escape sequences.
    expect(text.out).toContain('Count reads per gene.');
    expect(text.out).not.toContain('\u001b');
    expect(text.out).toMatch(/^not a readable skill \(user\): .*broken-one: /m);
    const json = JSON.parse((await cli(['skills', 'list', '--json'])).out) as { skills: { name: string; enabled: boolean; readiness: { ready: boolean } }[]; broken: unknown[] };
    expect(json.skills.find((s) => s.name === 'my-recipe')).toMatchObject({ enabled: true, readiness: { ready: true } });
    expect(json.broken).toHaveLength(1);
  });

  it('shows one skill’s SKILL.md and files; disable and enable switch it for the next runs', async () => {
    const shown = await cli(['skills', 'show', 'my-recipe']);
    expect(shown.code).toBe(0);
    expect(shown.out).toContain('files: scripts/count.py\n');
    expect(shown.out).toContain('# My recipe\n\nRun scripts/count.py.\n');
    expect((await cli(['skills', 'disable', 'my-recipe'])).out).toBe('my-recipe is off: the next runs do not see it.\n');
    expect((await cli(['skills'])).out).toMatch(/^my-recipe +user +off +/m);
    expect(JSON.parse((await cli(['skills', 'enable', 'my-recipe', '--json'])).out)).toEqual({ name: 'my-recipe', enabled: true });
  });

  it('refuses an unknown skill, action or session on one line', async () => {
    const unknown = await cli(['skills', 'show', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe('openai4s skills: No skill named "nope"; openai4s skills lists the installed skills.\n');
    const action = await cli(['skills', 'remove', 'my-recipe']);
    expect(action.code).toBe(2);
    expect(action.err).toBe('openai4s skills: unknown skills action "remove": use list, show, enable or disable. See openai4s skills --help.\n');
    const session = await cli(['skills', '--session', 'nobody']);
    expect(session.code).toBe(1);
    expect(session.err).toMatch(/^openai4s skills: No session "nobody"/);
  });
});
