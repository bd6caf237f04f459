import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src-main/cli/main';
import { computeWorld, sessionWith } from './support';

/**
 * `openai4s compute` given bad arguments, with a local Slurm target on a machine where
 * Slurm's commands are not on PATH: each refusal is one stderr line naming the problem and
 * the fix, and a refused submission leaves no job behind.
 */

describe('openai4s compute with bad arguments', () => {
  let world: ReturnType<typeof computeWorld>;
  let sessionId: string;
  let script: string;

  beforeAll(async () => {
    world = computeWorld([{ name: 'box', kind: 'slurm' }]);
    const core = world.open();
    sessionId = sessionWith(core);
    await core.close();
    script = path.join(world.dataDir, 'job.sh');
    fs.writeFileSync(script, 'true\n');
  });

  afterAll(async () => {
    await world?.cleanup();
  });

  async function cli(...args: string[]) {
    let out = '';
    let err = '';
    // No Slurm client on PATH: a submission that got as far as sbatch would say so.
    const env = { ...process.env, OPENAI4S_DATA_DIR: world.dataDir, OPENAI4S_KERNEL_PREWARM: '0', PATH: path.join(world.dataDir, 'no-bin') };
    const code = await runCli(['compute', ...args], { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) }, env);
    return { code, out, err: err.trim().split('\n') };
  }
  const submit = (...more: string[]) => cli('submit', '--target', 'box', '--session', sessionId, '--language', 'shell', '--script-file', script, ...more);
  const jobs = async () => JSON.parse((await cli('status', '--json')).out) as unknown[];

  it('refuses resources a scheduler cannot honour before anything is staged or submitted', async () => {
    for (const [flag, value, field] of [
      ['--cpus', '0', 'cpus'],
      ['--time-min', '0', 'timeLimitMin'],
      ['--memory-mb', '0', 'memoryMb'],
      ['--cpus', '100000', 'cpus'],
      ['--partition', 'a b;rm', 'partition'],
    ]) {
      const r = await submit(flag!, value!);
      expect(r.code, `${flag} ${value}`).toBe(1);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toMatch(new RegExp(`^openai4s compute: Invalid job resources: ${field}: .*Ask for whole numbers`));
    }
    expect(await jobs()).toEqual([]);
  });

  it('says which package brings a missing Slurm command', async () => {
    const r = await submit();
    expect(r.code).toBe(1);
    expect(r.err).toEqual(['openai4s compute: sbatch is not installed on this machine (or not on PATH); install slurm-client or pick another target.']);
  });

  it('refuses an argument an action does not take', async () => {
    const r = await cli('targets', 'extra');
    expect(r.code).toBe(2);
    expect(r.err).toEqual(['openai4s compute: targets takes no argument; got "extra". See openai4s compute --help.']);
  });
});
