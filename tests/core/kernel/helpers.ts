import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KernelSupervisor, type KernelSupervisorOptions } from '../../../src-main/core/kernel/supervisor';

/** A supervisor over a fresh data dir, with the real bwrap (mode enforce: a test never silently runs unsandboxed). */
export function makeSupervisor(opts: Partial<KernelSupervisorOptions> = {}): { sup: KernelSupervisor; dataDir: string } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-kernel-'));
  const sup = new KernelSupervisor({
    dataDir,
    processEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...opts.processEnv },
    sandboxMode: () => 'enforce',
    idleShutdownMs: 0,
    interruptGraceMs: 1_000,
    ...opts,
  });
  return { sup, dataDir };
}

/** Host processes whose command line contains `needle` (what `pgrep -f` would find). */
export function hostProcessesMatching(needle: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.includes(needle)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

export async function waitFor(check: () => boolean, ms = 3_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}
