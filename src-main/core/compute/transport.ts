import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import type { ComputeTargetConfig } from '../../../src-preload/contract/compute';
import { AppError } from '../../../src-preload/contract/errors';
import { makeDirs } from '../shared/makeDirs';

/**
 * Where a target's commands run: this machine, or a host over the OpenSSH client. Either
 * way a command is an argv (never a shell string built from user text without quoting),
 * and files move as tar streams. The child's environment is a short allow-list: the
 * app's provider keys and other secrets never reach sbatch, ssh or a job.
 */

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Transport {
  /** "this machine" or user@host:port, for messages. */
  readonly where: string;
  readonly remote: boolean;
  /** Runs argv on the target; resolves with its exit code (a missing ssh or a dead host is an error). */
  exec(argv: string[], options?: { timeoutMs?: number }): Promise<CommandResult>;
  /** Copies a local folder's contents into a folder on the target (created if needed). */
  upload(localDir: string, remoteDir: string): Promise<void>;
  /** Copies files (relative to remoteDir) from the target into localDir, keeping their relative paths. */
  download(remoteDir: string, files: string[], localDir: string): Promise<void>;
}

/** POSIX single-quoting: the text is one word to the shell whatever it contains. */
export function shQuote(text: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

const PASSED_ENV = /^(PATH|HOME|USER|LOGNAME|LANG|LC_[A-Z]+|TZ|TMPDIR|SSH_AUTH_SOCK|SLURM_CONF|SLURM_CLUSTERS|SQUEUE_[A-Z_]+|SBATCH_[A-Z_]+|KRB5CCNAME)$/;

/** The environment a target command gets: what ssh and the Slurm clients need, nothing else. */
export function commandEnv(processEnv: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(processEnv)) if (v !== undefined && PASSED_ENV.test(k)) env[k] = v;
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin';
  env.HOME ??= os.homedir();
  return env;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** The package that brings each command a target needs (Debian and Ubuntu names), for the "not installed" message. */
const CLIENT_PACKAGE: Record<string, string> = { ssh: 'openssh-client', sbatch: 'slurm-client', scontrol: 'slurm-client', sacct: 'slurm-client', scancel: 'slurm-client' };

function run(file: string, args: string[], env: NodeJS.ProcessEnv, options: { timeoutMs?: number; stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream } = {}): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    if (options.stdin) options.stdin.pipe(child.stdin!);
    if (options.stdout) child.stdout!.pipe(options.stdout);
    else child.stdout!.on('data', (d: Buffer) => (stdout = (stdout + d.toString()).slice(-1_000_000)));
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-64_000)));
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error.code === 'ENOENT' ? new AppError('unavailable', `${file} is not installed on this machine (or not on PATH); install ${CLIENT_PACKAGE[file] ?? file} or pick another target.`) : error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      // A hung login node or controller: said as such, not as an anonymous exit code.
      if (timedOut) reject(new AppError('unavailable', `${file} did not answer within ${Math.ceil(timeoutMs / 1000)} s and was stopped; the target is slow or hung: try again later, or check it from a terminal.`));
      else resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
}

/** Runs `producer | consumer` and fails with the first failing side's message. */
async function pipeline(producer: [string, string[]], consumer: [string, string[]], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<void> {
  const source = spawn(producer[0], producer[1], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let sourceErr = '';
  source.stderr!.on('data', (d: Buffer) => (sourceErr = (sourceErr + d.toString()).slice(-16_000)));
  const sourceDone = new Promise<number>((resolve, reject) => {
    source.once('error', reject);
    source.once('close', (code) => resolve(code ?? 1));
  });
  const sink = run(consumer[0], consumer[1], env, { stdin: source.stdout!, timeoutMs });
  const [sourceCode, sinkResult] = await Promise.all([sourceDone, sink]);
  if (sourceCode !== 0) throw new AppError('unavailable', `${producer[0]} failed (exit ${sourceCode}): ${sourceErr.trim().split('\n').pop() ?? ''}`);
  if (sinkResult.code !== 0) throw new AppError('unavailable', `${consumer[0]} failed (exit ${sinkResult.code}): ${sinkResult.stderr.trim().split('\n').pop() ?? ''}`);
}

export function localTransport(processEnv: NodeJS.ProcessEnv): Transport {
  const env = commandEnv(processEnv);
  return {
    where: 'this machine',
    remote: false,
    exec: ([file, ...args], options) => run(file!, args, env, options),
    async upload(localDir, remoteDir) {
      if (localDir === remoteDir) return;
      makeDirs(remoteDir);
      fs.cpSync(localDir, remoteDir, { recursive: true });
    },
    async download(remoteDir, files, localDir) {
      if (!files.length) return;
      await pipeline(['tar', ['-C', remoteDir, '-cf', '-', '--', ...files]], ['tar', ['-C', localDir, '-xf', '-']], env, 30 * 60_000);
    },
  };
}

/**
 * A path as the value of `ssh -o Key=value`: ssh splits that value at spaces (a data root
 * or known_hosts file under "Application Support" or "John Smith" would fail every call
 * with "extra arguments at end of line"), so such a value is double-quoted, which ssh undoes.
 */
function sshOptionPath(value: string): string {
  if (value.includes('"')) throw new AppError('invalid_input', `The path ${value} holds a double quote, which ssh options cannot carry; move the file to a path without one.`);
  return /[\s'\\]/.test(value) ? `"${value}"` : value;
}

/**
 * The ssh options every call uses: no prompt (keys or agent only: a password never passes
 * through the app), the host key checked against known_hosts, a bounded connect.
 */
export function sshArgs(target: ComputeTargetConfig, controlDir?: string): string[] {
  if (!target.host) throw new AppError('invalid_input', `Target "${target.name}" has no host; an ssh target needs one.`);
  const args = ['-o', 'BatchMode=yes', '-o', 'StrictHostKeyChecking=yes', '-o', 'ConnectTimeout=15', '-o', 'ServerAliveInterval=15', '-o', 'LogLevel=ERROR'];
  // One connection per target, reused by the calls of the next minute (a poll, a harvest):
  // each new SSH handshake costs a second on a busy login node. The socket lives in the
  // data root's private folder; a path too long for a Unix socket (or with a quote) goes without.
  // The socket is named by every setting that decides whom we trust (host key file, key),
  // not only by host, port and user: a connection checked against one known_hosts file is
  // never reused for a target that names another.
  if (controlDir && controlDir.length + 18 <= 100 && !controlDir.includes('"')) {
    const identity = createHash('sha256').update(JSON.stringify([target.host, target.port ?? null, target.user ?? null, target.identityFile ?? null, target.knownHostsFile ?? null])).digest('hex').slice(0, 16);
    args.push('-o', 'ControlMaster=auto', '-o', `ControlPath=${sshOptionPath(`${controlDir}/${identity}`)}`, '-o', 'ControlPersist=60');
  }
  if (target.port) args.push('-p', String(target.port));
  if (target.identityFile) args.push('-i', target.identityFile, '-o', 'IdentitiesOnly=yes');
  if (target.knownHostsFile) args.push('-o', `UserKnownHostsFile=${sshOptionPath(target.knownHostsFile)}`);
  if (target.user) args.push('-l', target.user);
  args.push('--', target.host);
  return args;
}

export function sshWhere(target: ComputeTargetConfig): string {
  return `${target.user ? `${target.user}@` : ''}${target.host ?? '?'}${target.port ? `:${target.port}` : ''}`;
}

/** What ssh's exit 255 means, in words the user can act on. */
function sshFailure(target: ComputeTargetConfig, stderr: string): AppError {
  const detail = stderr.trim().split('\n').filter(Boolean).pop() ?? 'no message';
  const hint = /host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED|no .* host key is known/i.test(stderr)
    ? `add the host's key to ${target.knownHostsFile ?? '~/.ssh/known_hosts'} (ssh-keyscan, checked against the key your admin publishes); the app never turns host key checking off`
    : /permission denied/i.test(stderr)
      ? 'check the user and identity file of the target, or load the key into ssh-agent'
      : 'check that the host is reachable (ssh from a terminal with the same settings)';
  return new AppError('unavailable', `Cannot reach target "${target.name}" (${sshWhere(target)}) over SSH: ${detail}. Fix: ${hint}.`);
}

export function sshTransport(target: ComputeTargetConfig, processEnv: NodeJS.ProcessEnv, controlDir?: string): Transport {
  const env = commandEnv(processEnv);
  if (controlDir) fs.mkdirSync(controlDir, { recursive: true, mode: 0o700 });
  const base = sshArgs(target, controlDir);
  const remoteCommand = (argv: string[]) => argv.map(shQuote).join(' ');
  const checked = (r: CommandResult) => {
    if (r.code === 255) throw sshFailure(target, r.stderr);
    return r;
  };
  return {
    where: sshWhere(target),
    remote: true,
    exec: async (argv, options) => checked(await run('ssh', [...base, remoteCommand(argv)], env, options)),
    async upload(localDir, remoteDir) {
      const make = `mkdir -p -- ${shQuote(remoteDir)} && tar -C ${shQuote(remoteDir)} -xf -`;
      await pipeline(['tar', ['-C', localDir, '-cf', '-', '.']], ['ssh', [...base, make]], env, 30 * 60_000).catch((error: Error) => {
        throw /ssh failed \(exit 255\)/.test(error.message) ? sshFailure(target, error.message) : error;
      });
    },
    async download(remoteDir, files, localDir) {
      if (!files.length) return;
      const pack = `tar -C ${shQuote(remoteDir)} -cf - -- ${files.map(shQuote).join(' ')}`;
      await pipeline(['ssh', [...base, pack]], ['tar', ['-C', localDir, '-xf', '-']], env, 30 * 60_000).catch((error: Error) => {
        throw /ssh failed \(exit 255\)/.test(error.message) ? sshFailure(target, error.message) : error;
      });
    },
  };
}
