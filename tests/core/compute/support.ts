import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ComputeJobView, ComputeTargetConfig } from '../../../src-preload/contract/compute';
import type { ApprovalAnswer, ApprovalPort, ApprovalQuestion } from '../../../src-main/core/capabilities/permissions/approvals';
import type { DispatchResult } from '../../../src-main/core/capabilities/dispatcher';
import { createCore, type Core } from '../../../src-main/core/core';
import { sessionWorkspace } from '../../../src-main/core/workspace/sessionWorkspace';
import { afterAll, beforeAll, expect } from 'vitest';
import { waitFor } from '../../support/daemons';
import { startSshServer, type SshServer } from '../../support/sshServer';

/** A data root with the given compute targets, and cores opened on it (closed by `cleanup`). */
export function computeWorld(targets: ComputeTargetConfig[], extraEnv: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-compute-'));
  fs.mkdirSync(path.join(dataDir, 'compute'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'compute', 'targets.json'), JSON.stringify({ targets }, null, 2));
  const cores: Core[] = [];
  const env = (more: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    ...process.env,
    ...extraEnv,
    OPENAI4S_DATA_DIR: dataDir,
    OPENAI4S_KERNEL_PREWARM: '0',
    OPENAI4S_COMPUTE_POLL_MS: '250',
    ...more,
  });
  return {
    dataDir,
    /** A core; `approvals` answers questions (absent: headless, with `unattended` as OPENAI4S_UNATTENDED_APPROVAL). */
    open(options: { approvals?: ApprovalPort; unattended?: 'allow' | 'deny'; resume?: boolean } = {}): Core {
      const core = createCore({
        env: env(options.unattended ? { OPENAI4S_UNATTENDED_APPROVAL: options.unattended } : {}),
        ...(options.approvals ? { approvals: options.approvals } : {}),
        ...(options.resume ? { resumeComputeJobs: true } : {}),
      });
      cores.push(core);
      return core;
    },
    async cleanup() {
      for (const core of cores) await core.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type ComputeWorld = ReturnType<typeof computeWorld>;

/**
 * A loopback sshd and a data root whose one target, `gpu-box`, is an SSH host on it (work
 * root `<sshd dir>/work`): started before the calling describe's tests, stopped after.
 * Read `sshd` and `world` inside the tests (they exist once beforeAll has run).
 */
export function useSshWorld(): { readonly sshd: SshServer; readonly world: ComputeWorld } {
  let sshd: SshServer | undefined;
  let world: ComputeWorld | undefined;
  beforeAll(async () => {
    sshd = await startSshServer();
    world = computeWorld([{ name: 'gpu-box', kind: 'ssh', host: sshd.host, port: sshd.port, user: sshd.user, identityFile: sshd.identityFile, knownHostsFile: sshd.knownHostsFile, workRoot: `${sshd.dir}/work` }]);
  }, 60_000);
  afterAll(async () => {
    await world?.cleanup();
    await sshd?.stop();
  }, 60_000);
  return {
    get sshd() {
      if (!sshd) throw new Error('the sshd is started in beforeAll: read it inside a test');
      return sshd;
    },
    get world() {
      if (!world) throw new Error('the compute world is made in beforeAll: read it inside a test');
      return world;
    },
  };
}

/** An approval port that allows once and keeps each question (to check the job summary shown). */
export function recordingApprovals(answer: ApprovalAnswer = 'allow_once'): ApprovalPort & { questions: ApprovalQuestion[] } {
  const questions: ApprovalQuestion[] = [];
  return {
    questions,
    ask: async (q) => {
      questions.push(q);
      return answer;
    },
  };
}

/** Calls a compute tool as the model would, through the host's dispatcher (policy, approval, audit). */
export function callTool(core: Core, sessionId: string, name: string, args: Record<string, unknown>): Promise<DispatchResult> {
  const workspace = sessionWorkspace(core.config.dataDir, sessionId);
  return core.host.dispatcher.dispatch(name, args, { origin: 'tool', sessionId, runId: null, workspace, signal: new AbortController().signal });
}

export function submitted(result: DispatchResult): ComputeJobView {
  if (result.status !== 'ok') throw new Error(`compute_submit was ${result.status}: ${result.text}`);
  return result.output as ComputeJobView;
}

/** Polls the job (through the service, as the poller does) until `done` holds. */
export async function waitForJob(core: Core, jobId: string, done: (j: ComputeJobView) => boolean, what: string, timeoutMs = 60_000): Promise<ComputeJobView> {
  let last: ComputeJobView = core.compute.view(jobId);
  let busy = false;
  await waitFor(
    `job ${jobId} ${what}`,
    () => {
      if (!busy) {
        busy = true;
        void core.compute
          .refresh(jobId)
          .then((j) => (last = j))
          .finally(() => (busy = false));
      }
      return done(last) || `state ${last.state}${last.reason ? ` (${last.reason})` : ''}${last.pollError ? `, poll error: ${last.pollError}` : ''}`;
    },
    timeoutMs,
    200,
  );
  return last;
}

export const harvested = (j: ComputeJobView) => j.harvested;

/** A new session with these files in its workspace. */
export function sessionWith(core: Core, files: Record<string, string> = {}): string {
  const session = core.ledger.createSession('compute test');
  const workspace = sessionWorkspace(core.config.dataDir, session.id);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(workspace, rel)), { recursive: true });
    fs.writeFileSync(path.join(workspace, rel), text);
  }
  return session.id;
}

const CRASH_FIXTURE = path.join(import.meta.dirname, 'fixtures/submitCrashChild.ts');

/**
 * Submits a job from a child process that kills itself (SIGKILL) at `moment` (see the
 * fixture); fails if it ends any other way. `script` replaces the fixture's job script.
 */
export async function crashDuringSubmit(dataDir: string, target: string, moment: 'after-submit' | 'before-submit', env: Record<string, string>, script?: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', CRASH_FIXTURE, dataDir, target, moment, ...(script ? [script] : [])], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, s) => resolve(s)));
  expect(signal, `the fixture did not crash: ${err}`).toBe('SIGKILL');
}
