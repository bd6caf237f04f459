import type { SandboxMode } from '../../../src-preload/contract/doctor';
import type { ConfigEnv } from './env';

const MODES: readonly SandboxMode[] = ['auto', 'enforce', 'off'];

/**
 * `OPENAI4S_SANDBOX`: `auto` (default: sandbox when possible, degrade visibly),
 * `enforce` (refuse to start a kernel without a sandbox), `off`.
 */
export function resolveSandboxMode(env: ConfigEnv): SandboxMode {
  const raw = env.value('OPENAI4S_SANDBOX')?.trim().toLowerCase();
  if (!raw) return 'auto';
  if ((MODES as readonly string[]).includes(raw)) return raw as SandboxMode;
  throw new Error(`OPENAI4S_SANDBOX=${raw} is not a sandbox mode. Use one of: ${MODES.join(', ')}.`);
}
