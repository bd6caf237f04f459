import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnvironmentChangeResult, EnvironmentList } from '../../../src-preload/contract/environments';
import type { KernelCellResult, KernelStatus } from '../../../src-preload/contract/kernel';
import { routes } from '../../../src-preload/contract/routes';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { createRouter } from '../../../src-main/core/api/router';
import { createCore, type Core } from '../../../src-main/core/core';

// Issue 18's acceptance, through the real router and real kernels: a virtualenv the test
// builds is discovered; env.use starts a new generation whose artifacts name it; env.create
// builds offline; a build that cannot succeed offline changes nothing and names its step;
// rollback restores the previous pointer. pip is kept off the network (PIP_NO_INDEX).
let dir: string;
let core: Core;
let sessionId: string;
const caller = { origin: 'app://openai4s', isMainFrame: true };

async function call<T>(route: string, input: unknown = {}): Promise<T> {
  const router = createRouter(routes, createHandlers(core));
  const answer = (await router.handle(route, input, caller)) as { ok: boolean; data?: T; error?: { code: string; message: string } };
  if (!answer.ok) throw new Error(`${answer.error!.code}: ${answer.error!.message}`);
  return answer.data as T;
}

const python = (code: string) => call<KernelCellResult>('kernel.execute', { sessionId, language: 'python', code });
const generation = async () => (await call<KernelStatus>('kernel.status', { sessionId })).slots.find((s) => s.language === 'python')!.generation;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-envs-'));
  // A second interpreter, made the way a user would: a virtualenv over the system Python.
  execFileSync('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', '--without-pip', path.join(dir, 'envs', 'probe-venv')]);
  core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0', PIP_NO_INDEX: '1' } });
  sessionId = core.ledger.createSession('environments').id;
}, 120_000);
afterAll(async () => {
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('scientific environments', { timeout: 180_000 }, () => {
  it('discovers the virtualenv, probes it once, and probes again when its site-packages change', async () => {
    const list = await call<EnvironmentList>('env.list', { sessionId });
    const venv = list.environments.find((e) => e.id === 'venv:probe-venv')!;
    expect(venv).toMatchObject({ language: 'python', kind: 'venv', interpreter: path.join(dir, 'envs/probe-venv/bin/python'), declaration: 'python-default', ready: true, missing: [] });
    expect(venv.version).toMatch(/^3\.\d+\.\d+$/);
    expect(venv.packages.find((p) => p.name === 'numpy')!.version).toMatch(/^\d+\./);
    expect(list.environments.map((e) => e.id)).toEqual(expect.arrayContaining(['python-default', 'python-science', 'r-default', 'r-bioc']));
    expect(list.current.python).toMatchObject({ environmentId: 'python-default', isDefault: true });

    const probes = core.environments.probes;
    const before = probes.probesRun;
    await call<EnvironmentList>('env.list', { sessionId });
    expect(probes.probesRun).toBe(before);
    // A package appears in the venv's own site-packages: that folder's mtime changes, so it is probed again.
    const site = execFileSync(path.join(dir, 'envs/probe-venv/bin/python'), ['-c', 'import site; print(site.getsitepackages()[0])'], { encoding: 'utf8' }).trim();
    fs.mkdirSync(path.join(site, 'o4s_marker_pkg'));
    await call<EnvironmentList>('env.list', { sessionId });
    expect(probes.probesRun).toBe(before + 1);
  });

  it('env.use ends the running generation; the next cell runs in the virtualenv and its artifact names it', async () => {
    const first = await python('import sys; print(sys.prefix)');
    expect(first.stdout.trim()).toBe('/usr');
    const used = await call<EnvironmentChangeResult>('env.use', { sessionId, environmentId: 'venv:probe-venv' });
    expect(used.endedGeneration).toBe(first.generation);
    expect(used.current.python).toMatchObject({ environmentId: 'venv:probe-venv', isDefault: false });
    fs.writeFileSync(path.join(core.kernels.workspaceFor(sessionId), 'x.txt'), 'x\n');
    const second = await python('import sys\nprint(sys.prefix)\nres = host.save_artifact("x.txt")\nprint(res["output"]["id"])');
    expect(second.status, second.error?.evalue).toBe('ok');
    expect(second.generation).not.toBe(first.generation);
    const [prefix, versionId] = second.stdout.trim().split('\n');
    expect(prefix).toBe(path.join(dir, 'envs/probe-venv'));
    const env = core.provenance.artifacts.version(versionId!).provenance.environment;
    expect(env).toMatchObject({ status: 'recorded', environment: 'venv:probe-venv', interpreter: path.join(dir, 'envs/probe-venv/bin/python') });
    if (env.status === 'recorded') expect(env.packages.find((p) => p.name === 'numpy')!.version).toMatch(/^\d+\./);
  });

  it('env.create builds a virtualenv offline over the system interpreter and moves the pointer only then', async () => {
    const created = await call<EnvironmentChangeResult>('env.create', { sessionId, name: 'sci', declaration: 'python-science' });
    expect(created.change).toMatchObject({ action: 'create', status: 'applied', environmentId: 'venv:sci', previousEnvironmentId: 'venv:probe-venv' });
    expect(fs.existsSync(path.join(dir, 'envs/sci/openai4s-env.json'))).toBe(true);
    const cell = await python('import sys, rdkit\nprint(sys.prefix)');
    expect(cell.stdout.trim()).toBe(path.join(dir, 'envs/sci'));
    const listed = await call<EnvironmentList>('env.list', { sessionId });
    expect(listed.environments.find((e) => e.id === 'venv:sci')).toMatchObject({ declaration: 'python-science', ready: true });
  });

  it('a build that cannot succeed offline leaves pointer and kernel as they were and names the failing step', async () => {
    const running = await generation();
    expect(running).not.toBeNull();
    await expect(call('env.create', { sessionId, name: 'bad', declaration: 'python-default', packages: ['openai4s-no-such-package'] })).rejects.toThrow(
      /failed at step "install packages".*openai4s-no-such-package.*Nothing changed: the session still uses venv:sci/,
    );
    expect(fs.existsSync(path.join(dir, 'envs/bad'))).toBe(false);
    expect(await generation()).toBe(running);
    const list = await call<EnvironmentList>('env.list', { sessionId });
    expect(list.current.python.environmentId).toBe('venv:sci');
    expect(list.history.at(-1)).toMatchObject({ action: 'create', status: 'failed', environmentId: 'venv:bad', failedStep: 'install packages' });
  });

  it('rollback moves the pointer back to the previous environment without rebuilding, and every change is in the ledger', async () => {
    const back = await call<EnvironmentChangeResult>('env.rollback', { sessionId, language: 'python' });
    expect(back.change).toMatchObject({ action: 'rollback', status: 'applied', environmentId: 'venv:probe-venv', previousEnvironmentId: 'venv:sci' });
    expect((await python('import sys; print(sys.prefix)')).stdout.trim()).toBe(path.join(dir, 'envs/probe-venv'));
    const history = core.ledger.environments.history(sessionId).map((c) => `${c.action}:${c.status}:${c.environmentId}`);
    expect(history).toEqual(['use:applied:venv:probe-venv', 'create:applied:venv:sci', 'create:failed:venv:bad', 'rollback:applied:venv:probe-venv']);
    expect(() => core.ledger.db.prepare('DELETE FROM environment_changes').run()).toThrow(/append-only/);
  });
});
