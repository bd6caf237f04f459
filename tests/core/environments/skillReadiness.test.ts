import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../../src-preload/contract/routes';
import type { SkillCatalogView, SkillDetail } from '../../../src-preload/contract/skills';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { createRouter } from '../../../src-main/core/api/router';
import { listKernelEnvs } from '../../../src-main/core/config/kernelEnvs';
import { createCore, type Core } from '../../../src-main/core/core';
import { packageInstallCommand, skillReadiness } from '../../../src-main/core/environments/skillReadiness';

// A skill's declared packages checked through the real probe of /usr/bin/python3 (which has
// NumPy on the test machine and never has nonexistent_pkg_xyz): present, missing, the command.
const PYTHON = '/usr/bin/python3';
let dir: string;
let core: Core;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-skill-ready-'));
  const skill = (name: string, python: string) => {
    fs.mkdirSync(path.join(dir, 'skills', name), { recursive: true });
    fs.writeFileSync(path.join(dir, 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: Use ${name}.\nmetadata:\n  requires:\n    python: [${python}]\n---\n\nBody.\n`);
  };
  skill('needs-numpy', 'numpy');
  skill('needs-nothing-real', 'numpy, nonexistent_pkg_xyz');
  // A second environment that has the package the default lacks: a venv in the data root
  // over the system packages (NumPy) with a real, tiny nonexistent_pkg_xyz module of its own.
  const venv = path.join(dir, 'envs', 'alt');
  execFileSync(PYTHON, ['-m', 'venv', '--without-pip', '--system-site-packages', venv]);
  const site = execFileSync(path.join(venv, 'bin', 'python'), ['-c', 'import site; print(site.getsitepackages()[0])'], { encoding: 'utf8' }).trim();
  fs.mkdirSync(path.join(site, 'nonexistent_pkg_xyz'), { recursive: true });
  fs.writeFileSync(path.join(site, 'nonexistent_pkg_xyz', '__init__.py'), '');
  core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_PYTHON: PYTHON } });
});
afterAll(async () => {
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const requiring = (python: string[]) => ({ name: 'x', requires: { python, r: [], env: null } });

describe('skill readiness', () => {
  it('is ready when the default environment has the package', async () => {
    const readiness = await skillReadiness(requiring(['numpy']), core.environments);
    expect(readiness).toEqual({
      ready: true,
      languages: [{ language: 'python', environmentId: 'python-default', interpreter: PYTHON, present: ['numpy'], missing: [], installCommand: null, reason: null }],
    });
  });

  it('names the missing package and the command that installs it for that interpreter', async () => {
    const readiness = await skillReadiness(requiring(['numpy', 'nonexistent_pkg_xyz']), core.environments, { platform: 'linux' });
    expect(readiness.ready).toBe(false);
    expect(readiness.languages[0]).toMatchObject({ present: ['numpy'], missing: ['nonexistent_pkg_xyz'], installCommand: `${PYTHON} -m pip install nonexistent_pkg_xyz` });
  });

  it('a skill without requirements is ready with nothing to check', async () => {
    expect(await skillReadiness(requiring([]), core.environments)).toEqual({ ready: true, languages: [] });
  });
});

describe('install commands per platform', () => {
  const declarations = listKernelEnvs();
  it('uses the Debian packages the declarations name on Linux, pip or R installers for the rest', () => {
    expect(packageInstallCommand('python', ['rdkit', 'Bio'], declarations, PYTHON, 'linux')).toBe('sudo apt-get install python3-rdkit python3-biopython');
    expect(packageInstallCommand('python', ['rdkit', 'nonexistent_pkg_xyz'], declarations, PYTHON, 'linux')).toBe(`sudo apt-get install python3-rdkit && ${PYTHON} -m pip install nonexistent_pkg_xyz`);
    expect(packageInstallCommand('r', ['DESeq2', 'ggplot2'], declarations, '/usr/bin/Rscript', 'linux')).toBe('sudo apt-get install r-bioc-deseq2 r-cran-ggplot2');
  });

  it('uses pip for the interpreter or BiocManager on macOS, and the Linux command inside WSL2 on Windows', () => {
    expect(packageInstallCommand('python', ['sklearn'], declarations, '/opt/homebrew/bin/python3', 'darwin')).toBe('/opt/homebrew/bin/python3 -m pip install scikit-learn');
    expect(packageInstallCommand('r', ['DESeq2', 'ggplot2'], declarations, null, 'darwin')).toBe(
      `Rscript -e 'install.packages(c("ggplot2")); install.packages("BiocManager"); BiocManager::install(c("DESeq2"))'`,
    );
    expect(packageInstallCommand('python', ['rdkit'], declarations, null, 'win32')).toBe('Windows runs the kernels in WSL2; inside it: sudo apt-get install python3-rdkit');
    expect(packageInstallCommand('python', [], declarations, PYTHON, 'linux')).toBeNull();
  });
});

describe('skill_status and the skills routes', () => {
  it('skill_status names the missing package, a ready environment to switch to, and the install command', async () => {
    const tool = core.host.registry.get('skill_status')!;
    expect(tool.onDemand).toBe(true);
    expect(tool.defaultPolicy).toBe('allow');
    expect(tool.sideEffect).toBe('read');
    const session = core.ledger.createSession('readiness');
    const ctx = { sessionId: session.id, runId: null, workspace: dir, signal: new AbortController().signal, origin: 'tool' as const };
    const missing = await tool.execute({ name: 'needs-nothing-real' }, ctx);
    expect(missing.text).toContain('Skill needs-nothing-real is not ready.');
    expect(missing.text).toContain('nonexistent_pkg_xyz missing in python-default');
    expect(missing.text).toContain(`install: ${packageInstallCommand('python', ['nonexistent_pkg_xyz'], listKernelEnvs(), PYTHON)}`);
    // The venv has both packages: the answer offers switching to it, and not to the
    // declared environments that run the same /usr/bin/python3.
    expect(missing.text).toContain('switch with env_use to venv:alt (ready)');
    expect(missing.text).not.toContain('python-science (ready)');
    const ready = await tool.execute({ name: 'needs-numpy' }, ctx);
    expect(ready.text).toContain('Skill needs-numpy is ready.');
  });

  it('skills.list, skills.get and skills.setEnabled carry each skill\'s readiness', async () => {
    const router = createRouter(routes, createHandlers(core));
    const caller = { origin: 'app://openai4s', isMainFrame: true };
    const list = (await router.handle('skills.list', {}, caller)) as { ok: true; data: SkillCatalogView };
    const byName = new Map(list.data.skills.map((s) => [s.name, s]));
    expect(byName.get('needs-numpy')!.readiness!.ready).toBe(true);
    expect(byName.get('needs-nothing-real')!.readiness!.languages[0]!.missing).toEqual(['nonexistent_pkg_xyz']);
    const detail = (await router.handle('skills.get', { name: 'needs-nothing-real' }, caller)) as { ok: true; data: SkillDetail };
    expect(detail.data.readiness!.ready).toBe(false);
    // Switching a skill answers with the list too: it keeps the readiness the page shows.
    const toggled = (await router.handle('skills.setEnabled', { name: 'needs-numpy', enabled: false }, caller)) as { ok: true; data: SkillCatalogView };
    expect(toggled.data.skills.find((s) => s.name === 'needs-nothing-real')!.readiness!.ready).toBe(false);
  });
});
