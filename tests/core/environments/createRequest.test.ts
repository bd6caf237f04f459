import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../../src-preload/contract/routes';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { createRouter } from '../../../src-main/core/api/router';
import { KERNEL_ENVS } from '../../../src-main/core/config/kernelEnvs';
import { createCore, type Core } from '../../../src-main/core/core';
import { buildEnvironment } from '../../../src-main/core/environments/build';
import { checkCreateRequest } from '../../../src-main/core/environments/createRequest';
import { ProbeCache } from '../../../src-main/core/environments/probeCache';

// An environment build takes a name that becomes a folder under envs/ and packages that
// become pip or conda arguments. The CLI calls the service without a schema, so the service
// itself refuses a path-like name (it built ../../x outside the data folder) and an
// option-like package (--target=DIR wrote outside; -r FILE made pip read a file).
let root: string;
let dir: string;
let core: Core;
let sessionId: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-envreq-'));
  dir = path.join(root, 'data');
  core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0', PIP_NO_INDEX: '1' } });
  sessionId = core.ledger.createSession('environment requests').id;
});
afterAll(async () => {
  await core.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('environment create requests', () => {
  it('accepts plain names and requirement specs', () => {
    for (const name of ['rdkit-2024', 'sci', 'py3.11_env']) expect(() => checkCreateRequest(name, [])).not.toThrow();
    expect(() => checkCreateRequest('sci', ['six', 'numpy>=1.26', 'scikit-learn==1.3.*', 'requests[socks]', 'bioconda::samtools', 'r-base=4.3', 'numpy>=1.2,<2'])).not.toThrow();
  });

  it('refuses a name that is a path, has "..", or is not a plain lower-case name, on one line naming the rule', () => {
    for (const name of ['../../escaped', '/tmp/abs', 'a/b', '..', 'a..b', '.hidden', '-x', 'Upper', 'x'.repeat(65), 'a\nb', '']) {
      expect(() => checkCreateRequest(name, []), name).toThrow(/^The environment name ".*" is refused: a name is 1-64 lower-case letters.*\(e\.g\. "rdkit-2024"\)\.$/);
    }
  });

  it('refuses a package that is an option, a path, a URL or has whitespace', () => {
    for (const p of ['--target=/tmp/x', '-r', '/etc/hostname', './local', 'pkg @ https://example.org/p.whl', 'six\n--user', 'six ', 'git+https://x/y', '']) {
      expect(() => checkCreateRequest('sci', ['six', p]), p).toThrow(/^The package ".*" is refused: give a package name .*never an option.*\)\.$/);
    }
  });

  it('the service refuses before building: nothing is created outside (or inside) envs/ and nothing is recorded', async () => {
    await expect(core.environments.create(sessionId, { name: '../../escaped', declaration: 'python-default' })).rejects.toThrow(/name "\.\.\/\.\.\/escaped" is refused/);
    await expect(core.environments.create(sessionId, { name: path.join(root, 'abs'), declaration: 'python-default' })).rejects.toThrow(/is refused/);
    await expect(core.environments.create(sessionId, { name: 'p1', declaration: 'python-default', packages: [`--target=${path.join(root, 'pipx')}`, 'six'] })).rejects.toThrow(/package "--target=.*" is refused/);
    await expect(core.environments.create(sessionId, { name: 'p2', declaration: 'python-default', packages: ['-r', '/etc/hostname'] })).rejects.toThrow(/package "-r" is refused/);
    expect(fs.readdirSync(root)).toEqual(['data']);
    expect(fs.existsSync(path.join(dir, 'envs', 'p1')) || fs.existsSync(path.join(dir, 'envs', 'p2'))).toBe(false);
    expect(core.ledger.environments.history(sessionId)).toEqual([]);
  });

  it('the route and the agent’s env_create schema refuse the same names and packages', async () => {
    const router = createRouter(routes, createHandlers(core));
    const caller = { origin: 'app://openai4s', isMainFrame: true };
    const answer = (input: unknown) => router.handle('env.create', input, caller) as Promise<{ ok: boolean; error?: { code: string } }>;
    expect(await answer({ sessionId, name: 'a..b', declaration: 'python-default' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await answer({ sessionId, name: 'ok', declaration: 'python-default', packages: ['-r'] })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const tool = core.host.registry.get('env_create')!;
    expect(tool.parse({ name: 'ok', declaration: 'python-default', packages: ['--user'] })).toMatchObject({ ok: false, error: expect.stringContaining('never an option') });
    expect(tool.parse({ name: '../x', declaration: 'python-default' })).toMatchObject({ ok: false, error: expect.stringContaining('lower-case letters') });
    expect(tool.parse({ name: 'ok', declaration: 'python-default', packages: ['numpy>=1.26'] })).toMatchObject({ ok: true });
  });

  it('pip gets "--" before the packages, so an option-like entry that reached the build is a requirement pip refuses', { timeout: 120_000 }, async () => {
    const envsDir = path.join(root, 'direct-envs');
    const target = path.join(root, 'pip-target');
    const built = await buildEnvironment({
      name: 'direct',
      declaration: core.environments.declarations().find((d) => d.id === KERNEL_ENVS.python.id)!,
      kind: 'venv',
      // Without "--", pip would take both as options: --help answers and exits 0, and the build would pass.
      packages: [`--target=${target}`, '--help'],
      envsDir,
      processEnv: { PATH: process.env.PATH, PIP_NO_INDEX: '1' },
      probes: new ProbeCache(path.join(root, 'probes.json'), { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' }),
      conda: null,
    });
    expect(built).toMatchObject({ ok: false, step: 'install packages' });
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.existsSync(path.join(envsDir, 'direct'))).toBe(false);
  });
});
