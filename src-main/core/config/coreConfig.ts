import type { SandboxMode } from '../../../src-preload/contract/doctor';
import { ensureDataDir, resolveDataDir } from './dataDir';
import { loadConfigEnv, type ConfigEnv } from './env';
import { defaultProviderId, type SettingsEndpointLookup, type SettingsKeyLookup } from './providers';
import { resolveSandboxMode } from './sandbox';

/** Everything the core reads from the outside world at start, resolved once. */
export interface CoreConfig {
  dataDir: string;
  dataDirSource: 'env' | 'default';
  env: ConfigEnv;
  processEnv: NodeJS.ProcessEnv;
  /** OPENAI4S_SANDBOX, else `auto`; the mode in force (env over Settings) is SettingsService.sandboxMode(). */
  sandboxMode: SandboxMode;
  defaultProvider: string;
  settingsKey?: SettingsKeyLookup;
  /** Base URLs and models chosen in Settings, read at each use so a change applies to the next run. */
  settingsEndpoint?: SettingsEndpointLookup;
}

export function loadCoreConfig(
  processEnv: NodeJS.ProcessEnv = process.env,
  settingsKey?: SettingsKeyLookup,
  settingsEndpoint?: SettingsEndpointLookup,
): CoreConfig {
  const info = resolveDataDir(processEnv);
  const dataDir = ensureDataDir(info);
  const env = loadConfigEnv(dataDir, processEnv);
  const config: CoreConfig = {
    dataDir,
    dataDirSource: info.source,
    env,
    processEnv,
    sandboxMode: resolveSandboxMode(env),
    defaultProvider: defaultProviderId(env),
  };
  if (settingsKey) config.settingsKey = settingsKey;
  if (settingsEndpoint) config.settingsEndpoint = settingsEndpoint;
  return config;
}
