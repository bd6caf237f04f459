import { ENV_NAME, ENV_NAME_RULE, PACKAGE_SPEC, PACKAGE_SPEC_RULE } from '../../../src-preload/contract/environments';
import { AppError } from '../../../src-preload/contract/errors';

/** A value as it was given, on one line (a newline inside shows as \n). */
const shown = (value: string): string => JSON.stringify(value).slice(1, -1);

/**
 * What an environment build accepts, checked in the service so every caller (the agent’s
 * env_create, the window’s route and the CLI, which has no schema of its own) gets it:
 * the name becomes a folder under envs/ and each package an argument of pip or conda, so a
 * path-like name or an option-like package (--target=…, -r FILE) would reach the disk.
 */
export function checkCreateRequest(name: string, packages: readonly string[]): void {
  if (!ENV_NAME.test(name)) throw new AppError('invalid_input', `The environment name "${shown(name)}" is refused: a name is ${ENV_NAME_RULE}.`);
  const bad = packages.find((p) => p.length > 100 || !PACKAGE_SPEC.test(p));
  if (bad !== undefined) throw new AppError('invalid_input', `The package "${shown(bad)}" is refused: give ${PACKAGE_SPEC_RULE}.`);
}
