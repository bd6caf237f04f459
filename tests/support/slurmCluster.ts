import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, missingBinaries, readPid, stopPid, tryRun, waitFor, which } from './daemons';

/**
 * A single-node Slurm cluster for tests, started as root in a temporary directory:
 * `munged` with a fresh key and its own socket, then `slurmctld` and `slurmd` from a
 * generated slurm.conf (this host's short name as controller and node, its real CPUs
 * and memory as `slurmd -C` reports them, linuxproc process tracking, no task plugin,
 * state and spool folders in the temporary directory, ports above 10000). Client
 * commands find it through `SLURM_CONF` (see `env`). Nothing in /etc is touched.
 *
 * Start one per test file at most (startup takes a few seconds); `stop()` cancels the
 * cluster's jobs and stops the three daemons by the pids they wrote.
 */

export const SLURM_BINARIES = ['munged', 'slurmctld', 'slurmd', 'sbatch', 'squeue', 'scontrol', 'scancel', 'sinfo'];

export interface SlurmCluster {
  /** The temporary directory holding the configuration, state, spool and logs. */
  readonly dir: string;
  readonly conf: string;
  /** This host's short name: controller and only node. */
  readonly node: string;
  readonly partition: string;
  /** What a client command needs in its environment (SLURM_CONF). */
  readonly env: Record<string, string>;
  /** The tail of the controller and node logs (for a failing test's message). */
  logs(): string;
  stop(): Promise<void>;
}

/** Why a cluster cannot start here, or null when it can (the binaries are installed and we are root). */
export function slurmUnavailableReason(): string | null {
  const missing = missingBinaries(SLURM_BINARIES);
  if (missing.length) return `Slurm tests skipped: ${missing.join(', ')} not installed (apt-get install slurm-wlm munge; .ci/run installs them)`;
  if (process.getuid?.() !== 0) return 'Slurm tests skipped: slurmd must run as root to start jobs (CI runs as root)';
  return null;
}

function nodeResources(): { cpus: number; memoryMb: number } {
  // `slurmd -C` prints the line slurm.conf wants, e.g. "NodeName=vm CPUs=2 ... RealMemory=24105".
  const line = tryRun(which('slurmd')!, ['-C']) ?? '';
  const cpus = Number(/\bCPUs=(\d+)/.exec(line)?.[1] ?? os.cpus().length);
  const memoryMb = Number(/\bRealMemory=(\d+)/.exec(line)?.[1] ?? Math.floor(os.totalmem() / 2 ** 20));
  return { cpus, memoryMb };
}

/** A free loopback port above 10000 (below it, system services may be configured). */
async function highPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port > 10_000) return port;
  }
}

export async function startSlurmCluster(): Promise<SlurmCluster> {
  const reason = slurmUnavailableReason();
  if (reason) throw new Error(reason);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-slurm-'));
  // munged checks that every directory above its socket is searchable.
  fs.chmodSync(dir, 0o755);
  const node = os.hostname().split('.')[0]!;
  const partition = 'debug';
  for (const sub of ['munge', 'state', 'spool', 'log']) fs.mkdirSync(path.join(dir, sub), { mode: 0o755 });
  const mungeDir = path.join(dir, 'munge');
  const keyFile = path.join(mungeDir, 'munge.key');
  fs.writeFileSync(keyFile, randomBytes(128), { mode: 0o600 });
  const socket = path.join(mungeDir, 'munge.sock');
  const pids = { munged: path.join(mungeDir, 'munged.pid'), slurmctld: path.join(dir, 'slurmctld.pid'), slurmd: path.join(dir, 'slurmd.pid') };
  const stopAll = async () => {
    await stopPid(readPid(pids.slurmd));
    await stopPid(readPid(pids.slurmctld));
    await stopPid(readPid(pids.munged));
  };
  try {
    // --force: munged refuses to run as root without it.
    const munge = spawnSync(
      which('munged')!,
      ['--force', `--key-file=${keyFile}`, `--socket=${socket}`, `--pid-file=${pids.munged}`, `--log-file=${path.join(mungeDir, 'munged.log')}`, `--seed-file=${path.join(mungeDir, 'munged.seed')}`],
      { encoding: 'utf8', timeout: 15_000 },
    );
    if (munge.status !== 0) throw new Error(`munged did not start (exit ${munge.status}): ${munge.stderr}`);
    await waitFor('the munge socket', () => fs.existsSync(socket), 10_000);

    const [ctldPort, slurmdPort] = [await highPort(), await highPort()];
    const { cpus, memoryMb } = nodeResources();
    const conf = path.join(dir, 'slurm.conf');
    fs.writeFileSync(
      conf,
      [
        'ClusterName=o4stest',
        `SlurmctldHost=${node}`,
        `SlurmctldPort=${ctldPort}`,
        `SlurmdPort=${slurmdPort}`,
        'SlurmUser=root',
        'SlurmdUser=root',
        'AuthType=auth/munge',
        'CredType=cred/munge',
        `AuthInfo=socket=${socket}`,
        `StateSaveLocation=${path.join(dir, 'state')}`,
        `SlurmdSpoolDir=${path.join(dir, 'spool')}`,
        `SlurmctldPidFile=${pids.slurmctld}`,
        `SlurmdPidFile=${pids.slurmd}`,
        `SlurmctldLogFile=${path.join(dir, 'log', 'slurmctld.log')}`,
        `SlurmdLogFile=${path.join(dir, 'log', 'slurmd.log')}`,
        'ProctrackType=proctrack/linuxproc',
        'TaskPlugin=task/none',
        'SwitchType=switch/none',
        'MpiDefault=none',
        'ReturnToService=2',
        'SchedulerType=sched/builtin',
        'SelectType=select/cons_tres',
        'SelectTypeParameters=CR_Core_Memory',
        'JobAcctGatherType=jobacct_gather/none',
        // No slurmdbd here, so sacct has nothing to read: finished jobs stay known to the
        // controller for MinJobAge seconds, which the app reads with scontrol.
        'AccountingStorageType=accounting_storage/none',
        'JobCompType=jobcomp/none',
        'MinJobAge=3600',
        // A job that names no memory gets this much per CPU, not the whole node (which would queue every other job).
        'DefMemPerCPU=256',
        'InactiveLimit=0',
        'KillWait=5',
        'SlurmctldTimeout=30',
        'SlurmdTimeout=30',
        `NodeName=${node} CPUs=${cpus} RealMemory=${memoryMb} State=UNKNOWN`,
        `PartitionName=${partition} Nodes=${node} Default=YES MaxTime=INFINITE State=UP`,
        '',
      ].join('\n'),
    );
    const env = { SLURM_CONF: conf };
    const clientEnv = { ...process.env, ...env };
    for (const daemon of ['slurmctld', 'slurmd'] as const) {
      const started = spawnSync(which(daemon)!, ['-f', conf], { env: clientEnv, encoding: 'utf8', timeout: 30_000 });
      if (started.status !== 0) throw new Error(`${daemon} did not start (exit ${started.status}): ${started.stderr}`);
    }
    const cluster: SlurmCluster = {
      dir,
      conf,
      node,
      partition,
      env,
      logs: () =>
        ['slurmctld.log', 'slurmd.log']
          .map((f) => {
            const text = fs.existsSync(path.join(dir, 'log', f)) ? fs.readFileSync(path.join(dir, 'log', f), 'utf8') : '';
            return `--- ${f}\n${text.split('\n').slice(-30).join('\n')}`;
          })
          .join('\n'),
      async stop() {
        // Jobs still running would outlive slurmd (linuxproc does not reap them on exit).
        tryRun(which('scancel')!, ['--user=root', '--full'], clientEnv);
        await stopAll();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
    await waitFor(
      `node ${node} idle in sinfo`,
      () => {
        const state = tryRun(which('sinfo')!, ['-h', '-N', '-o', '%T'], clientEnv)?.trim() ?? '';
        return state === 'idle' || `sinfo says "${state}"`;
      },
      45_000,
      300,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${cluster.logs()}`);
    });
    return cluster;
  } catch (error) {
    await stopAll();
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
