import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore } from '../../../src-main/core/core';
import { probePython } from '../../../src-main/core/doctor/python';
import { probeSandbox } from '../../../src-main/core/kernel/sandboxProbe';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-doctor-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

// These read the real machine: CI installs bubblewrap, the Debian science stack for
// /usr/bin/python3 and R with jsonlite (see .ci/run), exactly what the report claims.
describe('doctor on this machine', () => {
  it('finds the Debian Python with the science stack, R, and a working bwrap', async () => {
    const core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_PYTHON: '' } });
    const report = await core.doctor();
    expect(report.dataDir).toBe(dir);
    expect(report.dataDirSource).toBe('env');
    expect(report.node).toBe(process.versions.node);
    expect(report.python).toMatchObject({ path: '/usr/bin/python3', source: 'declared' });
    expect(report.python.version).toMatch(/^3\.\d+\.\d+$/);
    for (const name of ['numpy', 'pandas', 'matplotlib'] as const) {
      expect(report.python.packages[name], name).toMatch(/^\d+\.\d+/);
    }
    expect(report.r?.version).toMatch(/^\d+\.\d+/);
    expect(report.r?.jsonlite).toMatch(/^\d+\.\d+/);
    expect(report.sandbox).toMatchObject({ backend: 'bwrap', available: true, mode: 'auto', state: 'sandboxed' });
    // CI installs bindfs, so the default (OPENAI4S_SANDBOX_HIDE_PATHS=auto) hides host paths and says so.
    expect(report.sandbox.summary).toBe('sandboxed (bwrap); host paths hidden from /proc/self/mountinfo (bindfs view, OPENAI4S_SANDBOX_HIDE_PATHS=auto)');
    expect(report.python.installHint).toBeUndefined();
    expect(report.providers.find((p) => p.isDefault)?.id).toBe('ark');
    // Cached until asked to refresh.
    expect(await core.doctor()).toBe(report);
    expect(await core.doctor(true)).not.toBe(report);
  });

  it('never puts a key in the report', async () => {
    const secret = 'sk-live-0123456789abcdef';
    const core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_OPENAI_API_KEY: secret } });
    const report = await core.doctor();
    expect(JSON.stringify(report)).not.toContain(secret);
    expect(report.providers.find((p) => p.id === 'openai')).toMatchObject({
      configured: true,
      keySource: 'env',
      keyVariable: 'OPENAI4S_OPENAI_API_KEY',
    });
  });
});

describe('doctor probes explain what is missing', () => {
  it('reports a package that cannot be found with the reason', async () => {
    // A stand-in interpreter that answers the probe as a Python without pandas would.
    const fake = path.join(dir, 'fake-python');
    fs.writeFileSync(
      fake,
      `#!/bin/sh\necho '{"version": "3.12.1", "packages": {"numpy": "2.0.0", "pandas": null, "matplotlib": "3.9.0"}, "reasons": {"pandas": "ModuleNotFoundError: No module named pandas"}}'\n`,
      { mode: 0o755 },
    );
    const report = await probePython({ PATH: '/usr/bin:/bin', OPENAI4S_PYTHON: fake });
    expect(report).toMatchObject({ path: fake, source: 'env', version: '3.12.1' });
    expect(report.packages).toEqual({ numpy: '2.0.0', pandas: null, matplotlib: '3.9.0' });
    expect(report.packageReasons?.pandas).toMatch(/No module named pandas/);
    // The fix comes from envs/python-default.json, for this platform's package manager.
    expect(report.installHint).toBe('apt-get install python3 python3-numpy python3-pandas python3-matplotlib');
  });

  it('says a Python that answers but is too old for the kernels is not usable', async () => {
    const old = path.join(dir, 'old-python');
    fs.writeFileSync(old, `#!/bin/sh\necho '{"version": "3.6.15", "packages": {"numpy": "1.19.5", "pandas": "1.1.5", "matplotlib": "3.3.4"}, "reasons": {}}'\n`, { mode: 0o755 });
    const report = await probePython({ PATH: '/usr/bin:/bin', OPENAI4S_PYTHON: old });
    expect(report).toMatchObject({ version: '3.6.15', reason: 'Python 3.6.15 is too old for the kernels: they need Python 3.7 or newer' });
    // A Python 2 refuses the probe's -I with its usage text: asked with -V, it is named too old.
    const two = path.join(dir, 'python2');
    fs.writeFileSync(two, `#!/bin/sh\n[ "$1" = -V ] && { echo "Python 2.7.18" >&2; exit 0; }\necho "Unknown option: -I" >&2\nexit 2\n`, { mode: 0o755 });
    expect((await probePython({ PATH: '/usr/bin:/bin', OPENAI4S_PYTHON: two })).reason).toBe('Python 2.7.18 is too old for the kernels: they need Python 3.7 or newer');
  });

  it('reports an interpreter that fails, and one that does not exist', async () => {
    const broken = path.join(dir, 'broken-python');
    fs.writeFileSync(broken, '#!/bin/sh\necho boom >&2\nexit 3\n', { mode: 0o755 });
    const failed = await probePython({ PATH: '/usr/bin:/bin', OPENAI4S_PYTHON: broken });
    expect(failed.version).toBeNull();
    expect(failed.reason).toMatch(/exited with code 3: boom/);
    const missing = await probePython({ PATH: '/usr/bin:/bin', OPENAI4S_PYTHON: path.join(dir, 'nope') });
    expect(missing.reason).toMatch(/OPENAI4S_PYTHON=.* is not an executable file/);
  });

  it('says how the kernels are confined in each mode', async () => {
    const off = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_SANDBOX: 'off' } });
    expect((await off.doctor()).sandbox).toMatchObject({ state: 'off', summary: 'off' });
    const degraded = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_BWRAP: '/nonexistent/bwrap' } });
    const report = (await degraded.doctor()).sandbox;
    expect(report.state).toBe('degraded');
    expect(report.summary).toMatch(/^degraded: /);
  });

  it('names the install command when R is missing', async () => {
    const { probeR } = await import('../../../src-main/core/doctor/r');
    const missing = await probeR({ PATH: dir, OPENAI4S_RSCRIPT: path.join(dir, 'no-Rscript') });
    expect(missing.r).toBeNull();
    expect(missing.installHint).toBe('apt-get install r-base-core r-cran-jsonlite');
  });

  it('says why there is no sandbox', async () => {
    const none = await probeSandbox('enforce', { PATH: dir }, 'linux');
    expect(none).toMatchObject({ backend: 'none', available: false, mode: 'enforce', gap: 'bwrap_missing' });
    expect(none.reason).toMatch(/apt-get install bubblewrap/);
    const other = await probeSandbox('auto', {}, 'win32');
    expect(other).toMatchObject({ backend: 'none', available: false, gap: 'no_backend', detail: 'win32' });
    // A bwrap that cannot make namespaces: the case, and the system's own words as detail.
    const blocked = path.join(dir, 'bwrap-blocked');
    fs.writeFileSync(blocked, '#!/bin/sh\n[ "$1" = --version ] && { echo "bubblewrap 0.8.0"; exit 0; }\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', { mode: 0o755 });
    const refused = await probeSandbox('auto', { PATH: dir, OPENAI4S_BWRAP: blocked }, 'linux');
    expect(refused).toMatchObject({ backend: 'bwrap', available: false, gap: 'bwrap_blocked', detail: expect.stringMatching(/No permissions to create new namespace/) });
  });
});
