import fs from 'node:fs';

/**
 * Which process owns the ledger's in-flight work. Crash repair must only run when the
 * previous owner is dead: a CLI opening the ledger while the app runs must not declare the
 * app's live runs interrupted. The owner file holds a pid; a pid that no longer exists
 * (the process was killed) frees it. A reused pid can only delay a repair to the next open.
 */
export interface Ownership {
  /** True when this process took ownership (and may repair). */
  readonly owned: boolean;
  /** The pid of the live process that owns the ledger, when it is not us. */
  readonly otherPid: number | null;
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function claimOwnership(file: string): Ownership {
  const ownerFile = `${file}.owner`;
  let pid: number | null = null;
  try {
    pid = Number.parseInt(fs.readFileSync(ownerFile, 'utf8'), 10) || null;
  } catch {
    pid = null;
  }
  if (pid !== null && pid !== process.pid && alive(pid)) {
    return { owned: false, otherPid: pid, release() {} };
  }
  fs.writeFileSync(ownerFile, String(process.pid), { mode: 0o600 });
  return {
    owned: true,
    otherPid: null,
    release() {
      try {
        if (fs.readFileSync(ownerFile, 'utf8') === String(process.pid)) fs.unlinkSync(ownerFile);
      } catch {
        // Already gone.
      }
    },
  };
}
