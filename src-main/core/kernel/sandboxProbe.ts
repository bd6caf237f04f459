import fs from 'node:fs';
import type { SandboxMode, SandboxReport } from '../../../src-preload/contract/doctor';
import { execProbe } from '../shared/execProbe';
import { SYSTEM_PATH, findOnPath } from '../shared/executables';

/**
 * Whether the kernel sandbox works here: on Linux bubblewrap must not only exist but
 * start a process in fresh user and network namespaces (some kernels forbid them);
 * on macOS sandbox-exec must exist.
 */
export async function probeSandbox(
  mode: SandboxMode,
  processEnv: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<SandboxReport> {
  if (platform === 'linux') {
    const bwrap = processEnv.OPENAI4S_BWRAP?.trim() || findOnPath('bwrap', processEnv, SYSTEM_PATH);
    if (!bwrap) {
      return { backend: 'none', available: false, mode, gap: 'bwrap_missing', reason: 'bubblewrap (bwrap) is not installed (Debian: apt-get install bubblewrap)' };
    }
    const version = await execProbe(bwrap, ['--version'], { timeoutMs: 5_000 });
    const trial = await execProbe(
      bwrap,
      ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all', '--die-with-parent', '--new-session', '--', 'true'],
      { timeoutMs: 10_000 },
    );
    const report: SandboxReport = {
      backend: 'bwrap',
      available: trial.ok,
      mode,
      path: bwrap,
      version: version.ok ? version.stdout.trim().replace(/^bubblewrap\s*/i, '') : null,
    };
    if (!trial.ok) {
      report.gap = 'bwrap_blocked';
      report.detail = trial.reason;
      report.reason = `bwrap cannot create namespaces here: ${trial.reason}`;
    } else {
      report.features = await bwrapFeatures(bwrap);
    }
    return report;
  }
  if (platform === 'darwin') {
    const exists = fs.existsSync('/usr/bin/sandbox-exec');
    return {
      backend: exists ? 'sandbox-exec' : 'none',
      available: exists,
      mode,
      ...(exists ? { path: '/usr/bin/sandbox-exec' } : { gap: 'sandbox_exec_missing' as const, reason: '/usr/bin/sandbox-exec is missing' }),
    };
  }
  return { backend: 'none', available: false, mode, gap: 'no_backend', detail: platform, reason: `no kernel sandbox is implemented for ${platform}` };
}

/** The options the kernel sandbox uses when this bwrap has them (see kernel/sandbox.ts). */
const FEATURE_FLAGS: Record<string, string> = { args: '--args FD', seccomp: '--seccomp FD', 'disable-userns': '--disable-userns', size: '--size BYTES' };

async function bwrapFeatures(bwrap: string): Promise<string[]> {
  const help = await execProbe(bwrap, ['--help'], { timeoutMs: 5_000 });
  const text = `${help.stdout}`;
  const features = Object.entries(FEATURE_FLAGS).filter(([, flag]) => text.includes(flag)).map(([name]) => name);
  if (features.includes('disable-userns')) {
    // It needs its own user namespace (--unshare-user), which some setups refuse.
    const trial = await execProbe(
      bwrap,
      ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--', 'true'],
      { timeoutMs: 10_000 },
    );
    if (!trial.ok) features.splice(features.indexOf('disable-userns'), 1);
  }
  return features;
}
