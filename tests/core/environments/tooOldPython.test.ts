import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnvironmentList } from '../../../src-preload/contract/environments';
import { routes } from '../../../src-preload/contract/routes';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { createRouter } from '../../../src-main/core/api/router';
import { createCore, type Core } from '../../../src-main/core/core';
import { pythonTooOld, versionFromBanner } from '../../../src-main/core/config/kernelPython';

// pyenv keeps old Pythons. One the kernel worker cannot run on (2.7, 3.6) is listed with its
// version and why, offers no install command, and cannot be chosen; before, 2.7 read "could
// not be probed: … Try `python -h' for more information." and 3.6 was offered, then crashed
// the kernel three times with an ImportError.
let dir: string;
let core: Core;
let sessionId: string;
const caller = { origin: 'app://openai4s', isMainFrame: true };

async function call(route: string, input: unknown): Promise<{ ok: boolean; data?: unknown; error?: { code: string; message: string } }> {
  const router = createRouter(routes, createHandlers(core));
  return (await router.handle(route, input, caller)) as { ok: boolean; data?: unknown; error?: { code: string; message: string } };
}

/** A pyenv version whose interpreter is a script acting as that Python. */
function fakePython(version: string, script: string): void {
  const bin = path.join(dir, 'pyenv', 'versions', version, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, 'python'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-oldpy-'));
  // Python 2 refuses -I with its usage text, and prints its version on stderr.
  fakePython('2.7.18', `[ "$1" = -V ] && { echo "Python 2.7.18" >&2; exit 0; }\necho "Unknown option: -I" >&2\necho "Try \\\`python -h' for more information." >&2\nexit 2`);
  // Python 3.6 runs the probe (here: answers as the probe would, with numpy present).
  fakePython('3.6.15', `echo '{"version": "3.6.15", "packages": {"numpy": "1.19.5"}, "sitePaths": []}'`);
  core = createCore({ env: { PATH: process.env.PATH, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0', PYENV_ROOT: path.join(dir, 'pyenv'), HOME: dir } });
  sessionId = core.ledger.createSession('old pythons').id;
});
afterAll(async () => {
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a Python too old for the kernels', () => {
  it('is listed with its version and the reason, without an install command, and env.use refuses it', async () => {
    const list = (await call('env.list', { sessionId })).data as EnvironmentList;
    const old = list.environments.filter((e) => e.kind === 'pyenv').sort((a, b) => a.id.localeCompare(b.id));
    expect(old.map((e) => ({ id: e.id, version: e.version, ready: e.ready, reason: e.reason, install: e.installCommand, missing: e.missing }))).toEqual([
      { id: 'pyenv:2.7.18', version: '2.7.18', ready: false, reason: 'Python 2.7.18 is too old for the kernels: they need Python 3.7 or newer', install: undefined, missing: [] },
      { id: 'pyenv:3.6.15', version: '3.6.15', ready: false, reason: 'Python 3.6.15 is too old for the kernels: they need Python 3.7 or newer', install: undefined, missing: [] },
    ]);
    for (const id of ['pyenv:2.7.18', 'pyenv:3.6.15']) {
      const refused = await call('env.use', { sessionId, environmentId: id });
      expect(refused.ok).toBe(false);
      expect(refused.error).toMatchObject({ code: 'unavailable', message: expect.stringMatching(/cannot run: Python \d\.\d+\.\d+ is too old for the kernels: they need Python 3\.7 or newer/) });
    }
    // The session still uses the default.
    expect(((await call('env.list', { sessionId })).data as EnvironmentList).current.python).toMatchObject({ environmentId: 'python-default' });
  });

  it('reads versions from a banner and compares them with 3.7', () => {
    expect(versionFromBanner('Python 2.7.18\n')).toBe('2.7.18');
    expect(versionFromBanner('garbage')).toBeNull();
    expect(pythonTooOld('3.6.15')).toMatch(/too old/);
    expect(pythonTooOld('2.7')).toMatch(/too old/);
    expect(pythonTooOld('3.7.0')).toBeNull();
    expect(pythonTooOld('3.13.1')).toBeNull();
    expect(pythonTooOld('4.0.0')).toBeNull();
    expect(pythonTooOld('unknown')).toBeNull();
  });
});
