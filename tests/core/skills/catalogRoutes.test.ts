import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../src-preload/contract/routes';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { createRouter } from '../../../src-main/core/api/router';
import { createCore, type Core } from '../../../src-main/core/core';

// The Skills page's routes through the real router: list, switch off and on, new skill, detail.
let dir: string;
let core: Core;
const caller = { origin: 'app://openai4s', isMainFrame: true };
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-skill-routes-'));
  fs.mkdirSync(path.join(dir, 'skills/broken'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'skills/broken/SKILL.md'), 'no frontmatter\n');
  fs.mkdirSync(path.join(dir, 'skills/my-insulin'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'skills/my-insulin/SKILL.md'), '---\nname: insulin-quicklook\ndescription: My copy.\n---\n');
  core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0' } });
});
afterEach(async () => {
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function call<T>(route: string, input: unknown = {}): Promise<T> {
  const router = createRouter(routes, createHandlers(core));
  const answer = (await router.handle(route, input, caller)) as { ok: boolean; data?: T; error?: { code: string; message: string } };
  if (!answer.ok) throw new Error(`${answer.error!.code}: ${answer.error!.message}`);
  return answer.data as T;
}

describe('skills routes', () => {
  it('lists bundled skills, the broken user folder with its reason, and the shadowed user copy', async () => {
    const view = await call<{ skills: { name: string; source: string; enabled: boolean }[]; broken: { reason: string }[]; shadowed: { name: string }[]; userDir: string }>('skills.list');
    expect(view.skills).toContainEqual(expect.objectContaining({ name: 'insulin-quicklook', source: 'bundled', enabled: true }));
    expect(view.broken.map((b) => b.reason)).toEqual([expect.stringMatching(/must start with a YAML frontmatter/)]);
    expect(view.shadowed).toEqual([expect.objectContaining({ name: 'insulin-quicklook', kept: expect.objectContaining({ source: 'bundled' }) })]);
    expect(view.userDir).toBe(path.join(dir, 'skills'));
  });

  it('switching a skill off leaves it listed (off) and removes it from the catalogue the prompt gets', async () => {
    expect(core.skills.listing()).toContain('insulin-quicklook');
    const view = await call<{ skills: { name: string; enabled: boolean }[] }>('skills.setEnabled', { name: 'insulin-quicklook', enabled: false });
    expect(view.skills.find((s) => s.name === 'insulin-quicklook')!.enabled).toBe(false);
    expect(core.skills.listing()).not.toContain('insulin-quicklook');
    await call('skills.setEnabled', { name: 'insulin-quicklook', enabled: true });
    expect(core.skills.listing()).toContain('insulin-quicklook');
  });

  it('"new skill" writes a valid SKILL.md from the template into the user folder, once', async () => {
    const created = await call<{ name: string; source: string; body: string }>('skills.create', { name: 'growth-curves', description: 'Fit bacterial growth curves.' });
    expect(created).toMatchObject({ name: 'growth-curves', source: 'user' });
    expect(fs.existsSync(path.join(dir, 'skills/growth-curves/SKILL.md'))).toBe(true);
    expect(core.skills.listing()).toContain('- growth-curves: Fit bacterial growth curves.');
    await expect(call('skills.create', { name: 'growth-curves', description: 'again' })).rejects.toThrow(/^conflict: A skill named "growth-curves" already exists/);
    await expect(call('skills.create', { name: 'Bad Name', description: 'x' })).rejects.toThrow(/^invalid_input: .*lower-case letters/);
  });

  it('skills.get returns the body and files of any skill; an unknown name is not_found', async () => {
    const detail = await call<{ body: string; files: string[] }>('skills.get', { name: 'insulin-quicklook' });
    expect(detail.body).toContain('# Insulin quicklook');
    await expect(call('skills.get', { name: 'nope' })).rejects.toThrow(/^not_found: No skill named "nope"/);
    expect(await call('skills.reveal', { name: 'insulin-quicklook' })).toMatchObject({ revealed: false, path: expect.stringContaining('insulin-quicklook') });
  });
});
