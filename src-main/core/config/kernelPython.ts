import { execProbe } from '../shared/execProbe';

/**
 * The oldest Python the kernel worker runs on (kernel-workers/python/worker.py checks the
 * same at its top): 3.7, for `queue.SimpleQueue`. An older interpreter (pyenv keeps them,
 * 2.7 included) is listed as too old, cannot be chosen, and doctor says so.
 */
export const MIN_KERNEL_PYTHON: readonly [number, number] = [3, 7];

/** Why an interpreter of this version cannot run kernels, or null when it can (or the version is unreadable). */
export function pythonTooOld(version: string): string | null {
  const m = /^(\d+)\.(\d+)/.exec(version.trim());
  if (!m) return null;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  const [wantMajor, wantMinor] = MIN_KERNEL_PYTHON;
  if (major > wantMajor || (major === wantMajor && minor >= wantMinor)) return null;
  return `Python ${version} is too old for the kernels: they need Python ${wantMajor}.${wantMinor} or newer`;
}

/** The version `python -V` printed (Python 2 prints it to stderr), or null. */
export function versionFromBanner(text: string): string | null {
  return /Python (\d+\.\d+(?:\.\d+)?)/.exec(text)?.[1] ?? null;
}

/**
 * After a probe the interpreter refused (a Python 2 refuses -I with its usage text): which
 * Python it is, asked with -V, and why it cannot run kernels when it is too old. Null when it
 * does not say.
 */
export async function refusedPythonProbe(interpreter: string, env: NodeJS.ProcessEnv): Promise<{ version: string; tooOld: string | null } | null> {
  const banner = await execProbe(interpreter, ['-V'], { env, timeoutMs: 5_000 });
  const version = versionFromBanner(`${banner.stdout}\n${banner.stderr}`);
  return version ? { version, tooOld: pythonTooOld(version) } : null;
}
