import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, missingBinaries, stopPid, waitFor, which } from './daemons';

/**
 * An OpenSSH server on a loopback port for tests: a generated host key, a generated user
 * key (the only key it accepts), public-key authentication only, and a known_hosts file
 * naming the host key, so clients keep StrictHostKeyChecking on. It runs in the
 * foreground as a child of the test process and is stopped by its pid.
 */

export const SSH_BINARIES = ['sshd', 'ssh', 'ssh-keygen'];

export interface SshServer {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** The user the key logs in as (the test process's user). */
  readonly user: string;
  /** The private key the server accepts. */
  readonly identityFile: string;
  /** known_hosts with this server's host key, as `[127.0.0.1]:<port> <key>`. */
  readonly knownHostsFile: string;
  readonly dir: string;
  logs(): string;
  stop(): Promise<void>;
}

export function sshUnavailableReason(): string | null {
  const missing = missingBinaries(SSH_BINARIES);
  if (missing.length) return `SSH tests skipped: ${missing.join(', ')} not installed (apt-get install openssh-server openssh-client; .ci/run installs them)`;
  return null;
}

function keygen(file: string, comment: string): string {
  const r = spawnSync(which('ssh-keygen')!, ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ssh-keygen failed: ${r.stderr}`);
  return fs.readFileSync(`${file}.pub`, 'utf8').trim();
}

/** Accepts a connection on the port (sshd is listening). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts sshd. `setEnv` is passed to every session (sshd_config SetEnv), e.g. SLURM_CONF
 * so that a Slurm "login node" reached over SSH finds the test cluster.
 */
export async function startSshServer(options: { setEnv?: Record<string, string> } = {}): Promise<SshServer> {
  const reason = sshUnavailableReason();
  if (reason) throw new Error(reason);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-sshd-'));
  const hostKey = path.join(dir, 'host_ed25519');
  const hostPub = keygen(hostKey, 'o4s-test-host');
  const identityFile = path.join(dir, 'id_ed25519');
  fs.writeFileSync(path.join(dir, 'authorized_keys'), `${keygen(identityFile, 'o4s-test-user')}\n`, { mode: 0o600 });
  const port = await freePort();
  const knownHostsFile = path.join(dir, 'known_hosts');
  fs.writeFileSync(knownHostsFile, `[127.0.0.1]:${port} ${hostPub.split(' ').slice(0, 2).join(' ')}\n`);
  // sshd refuses to start without its privilege-separation directory.
  if (process.getuid?.() === 0) fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const user = os.userInfo().username;
  const setEnv = Object.entries(options.setEnv ?? {}).map(([k, v]) => `${k}=${v}`);
  const config = path.join(dir, 'sshd_config');
  fs.writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      `AllowUsers ${user}`,
      // The key files live in a temporary directory, not the user's ~/.ssh.
      'StrictModes no',
      'UsePAM no',
      'PrintMotd no',
      'MaxStartups 50:30:100',
      'MaxSessions 50',
      ...(setEnv.length ? [`SetEnv ${setEnv.join(' ')}`] : []),
      '',
    ].join('\n'),
  );
  const check = spawnSync(which('sshd')!, ['-t', '-f', config], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`sshd rejected its test configuration: ${check.stderr}`);
  let log = '';
  const child: ChildProcess = spawn(which('sshd')!, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-20_000)));
  const server: SshServer = {
    host: '127.0.0.1',
    port,
    user,
    identityFile,
    knownHostsFile,
    dir,
    logs: () => log,
    async stop() {
      await stopPid(child.pid ?? null);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    let up = false;
    await waitFor(
      `sshd on 127.0.0.1:${port}`,
      () => {
        if (child.exitCode !== null) throw new Error(`sshd exited (${child.exitCode}): ${log}`);
        void listening(port).then((ok) => (up ||= ok));
        return up;
      },
      15_000,
      100,
    );
    return server;
  } catch (error) {
    await server.stop();
    throw error;
  }
}
