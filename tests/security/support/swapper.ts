import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The attacker of issue 13, item 2, without a kernel: a Python 3 process that exchanges a
 * workspace folder with a symlink to a host folder in a tight loop with
 * renameat2(RENAME_EXCHANGE), exactly what a thread of a sandboxed cell did (the
 * workspace is the same folder on the host). At every instant one of the two names is
 * the real folder and the other the symlink; code that checks a path and then reopens it
 * by name lands in the host folder whenever a swap falls in between.
 */

const SWAPPER = `
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_EXCHANGE = -100, 2
a, b = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2])
try:
    fn = libc.renameat2
    swap = lambda: fn(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)
except AttributeError:
    swap = lambda: libc.syscall(316, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)  # x86_64 renameat2
if swap() != 0:
    sys.stderr.write("renameat2 failed: errno %d\\n" % ctypes.get_errno()); sys.exit(3)
sys.stdout.write("ready\\n"); sys.stdout.flush()
while True:
    swap()
`;

export const CANARY = 'HOST-CANARY-7f3a9c: a host file the workspace must never reach';
export const CANARY_NAME = 'host-only-canary.txt';

export interface RaceBed {
  /** The session workspace (its real path). */
  workspace: string;
  /** A host folder outside the workspace holding the canary file. */
  host: string;
  /** Workspace-relative name of the folder being swapped. */
  folder: string;
  /** Stops the swapper and removes everything. */
  close(): Promise<void>;
}

/**
 * A workspace whose folder `folder` (holding `file` with benign content) is swapped
 * with `<workspace>/.swap -> <host>` without pause. `host` holds `file` too, with the
 * canary, plus a canary-named file, so any read or listing that reaches it shows.
 */
export async function startRace(
  folder = 'data',
  file = 'notes.txt',
  contents: { workspace: string; host: string } = { workspace: 'benign workspace content\n', host: `${CANARY}\n` },
): Promise<RaceBed> {
  const parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-race-')));
  const workspace = path.join(parent, 'workspace');
  const host = path.join(parent, 'host-secrets');
  fs.mkdirSync(path.join(workspace, folder), { recursive: true });
  fs.mkdirSync(host);
  fs.writeFileSync(path.join(workspace, folder, file), contents.workspace);
  fs.writeFileSync(path.join(host, file), contents.host);
  fs.writeFileSync(path.join(host, CANARY_NAME), `${CANARY}\n`);
  fs.symlinkSync(host, path.join(workspace, '.swap'));
  const child: ChildProcess = spawn('/usr/bin/python3', ['-c', SWAPPER, path.join(workspace, folder), path.join(workspace, '.swap')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the swapper exited (${code}) before it was ready: ${stderr}`)));
  });
  return {
    workspace,
    host,
    folder,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await gone;
      }
      fs.rmSync(parent, { recursive: true, force: true });
    },
  };
}

/** Files in `dir` now (to prove nothing was written there). */
export function namesIn(dir: string): string[] {
  return fs.readdirSync(dir).sort();
}

/** Open descriptors of this process (to prove none leaked). */
export function openFdCount(): number {
  return fs.readdirSync('/proc/self/fd').length;
}
