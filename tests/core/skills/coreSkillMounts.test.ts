import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCore } from '../../../src-main/core/core';

// The core wires the supervisor to its skill library: a kernel mounts the enabled skills
// (bundled and user) at its start, and a skill switched off in Settings is not mounted.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-coreskills-'));
fs.mkdirSync(path.join(dataDir, 'skills', 'my-recipe'), { recursive: true });
fs.writeFileSync(path.join(dataDir, 'skills', 'my-recipe', 'SKILL.md'), '---\nname: my-recipe\ndescription: A user recipe.\n---\nSteps.\n');
fs.writeFileSync(path.join(dataDir, 'skills', 'my-recipe', 'kernel.py'), 'ANSWER = 42\n');
const core = createCore({ env: { PATH: process.env.PATH, LANG: 'C.UTF-8', OPENAI4S_DATA_DIR: dataDir, OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_SANDBOX: 'enforce' } });
afterAll(() => core.close());

describe('core: skill folders in the kernel', () => {
  it('mounts the enabled bundled and user skills, not a disabled one; the sidecar loads through the host dispatcher', async () => {
    core.settings.update({ disabledSkills: ['phylogeny-nj'] });
    const session = core.ledger.createSession('skills in a cell');
    const cell = await core.kernels.execute(session.id, 'python', 'import os\nprint(sorted(os.listdir("/opt/openai4s/skills")))\nprint(host.skills.sidecar("my-recipe").ANSWER)');
    expect(cell.stderr + (cell.error?.traceback ?? '')).toBe('');
    const [listing, answer] = cell.stdout.trim().split('\n');
    const mounted = JSON.parse(listing!.replace(/'/g, '"')) as string[];
    expect(mounted).toContain('my-recipe');
    expect(mounted).toContain('protein-properties');
    expect(mounted).not.toContain('phylogeny-nj');
    expect(mounted).toEqual(core.skills.enabled().map((s) => s.name));
    expect(answer).toBe('42');
  });
});
