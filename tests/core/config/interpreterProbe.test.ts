import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probeInterpreter } from '../../../src-main/core/config/interpreterProbe';
import { KERNEL_ENVS, kernelInterpreter } from '../../../src-main/core/config/kernelEnvs';
import { probePython } from '../../../src-main/core/doctor/python';
import { probeR } from '../../../src-main/core/doctor/r';
import { GenerationEnvironments, supervisorInterpreters } from '../../../src-main/core/provenance/environment';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-probe-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function script(name: string, body: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

describe('one interpreter table and one package probe', () => {
  it('the doctor and an artifact environment read the same Python the same way', async () => {
    // A stand-in interpreter answering the probe as a Python without pandas would.
    const fake = script('fake-python', `echo '{"version": "3.12.1", "packages": {"numpy": "2.0.0", "pandas": null, "matplotlib": "3.9.0"}, "reasons": {"pandas": "ModuleNotFoundError: No module named pandas"}}'`);
    const env = { PATH: '/usr/bin:/bin', OPENAI4S_PYTHON: fake };
    const doctor = await probePython(env);
    const recorded = await new GenerationEnvironments(supervisorInterpreters(env)).describe({ language: 'python', generation: 'g1' });
    expect(doctor).toMatchObject({ path: fake, version: '3.12.1', packages: { numpy: '2.0.0', pandas: null, matplotlib: '3.9.0' } });
    expect(recorded).toEqual({
      status: 'recorded',
      language: 'python',
      interpreter: fake,
      interpreterVersion: 'Python 3.12.1',
      packages: [
        { name: 'numpy', version: '2.0.0' },
        { name: 'pandas', version: null },
        { name: 'matplotlib', version: '3.9.0' },
      ],
    });
  });

  it('the doctor and an artifact environment read the same Rscript the same way', async () => {
    const fake = script('fake-Rscript', `printf '4.3.1\\njsonlite\\t1.8.7\\n'`);
    const env = { PATH: '/usr/bin:/bin', OPENAI4S_RSCRIPT: fake };
    const doctor = await probeR(env);
    const recorded = await new GenerationEnvironments(supervisorInterpreters(env)).describe({ language: 'r', generation: 'g1' });
    expect(doctor.r).toEqual({ path: fake, version: '4.3.1', jsonlite: '1.8.7' });
    expect(recorded).toEqual({ status: 'recorded', language: 'r', interpreter: fake, interpreterVersion: 'R 4.3.1', packages: [{ name: 'jsonlite', version: '1.8.7' }] });
  });

  it('a failing or unreadable interpreter is a reason, never a throw', async () => {
    const broken = script('broken', 'echo boom >&2\nexit 3');
    expect(await probeInterpreter('python', broken, ['numpy'], { env: { PATH: '/usr/bin:/bin' } })).toEqual({ ok: false, reason: `${broken} exited with code 3: boom` });
    const garbled = script('garbled', 'echo hello');
    expect(await probeInterpreter('r', garbled, [], { env: { PATH: '/usr/bin:/bin' } })).toEqual({ ok: false, reason: 'unreadable probe output: hello' });
  });

  it('every language has one declared environment, override variable and command', () => {
    expect(Object.keys(KERNEL_ENVS).sort()).toEqual(['python', 'r']);
    const over = script('py', 'exit 0');
    expect(kernelInterpreter('python', { PATH: dir, [KERNEL_ENVS.python.overrideVar]: over }).choice).toEqual({ path: over, source: 'env' });
    expect(kernelInterpreter('r', { PATH: dir }).decl.id).toBe(KERNEL_ENVS.r.id);
  });
});
