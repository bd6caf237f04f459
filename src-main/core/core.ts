import type { DoctorReport } from '../../src-preload/contract/doctor';
import { loadCoreConfig, type CoreConfig } from './config/coreConfig';
import type { SettingsKeyLookup } from './config/providers';
import { buildDoctorReport } from './doctor/doctor';

/**
 * The main-process core: plain Node, no Electron. The Electron glue, the CLI and the
 * end-to-end harness each create one and bind it to their transport.
 */
export interface Core {
  readonly config: CoreConfig;
  doctor(refresh?: boolean): Promise<DoctorReport>;
  close(): Promise<void>;
}

export interface CoreOptions {
  env?: NodeJS.ProcessEnv;
  settingsKey?: SettingsKeyLookup;
}

export function createCore(options: CoreOptions = {}): Core {
  const config = loadCoreConfig(options.env ?? process.env, options.settingsKey);
  let doctorCache: Promise<DoctorReport> | null = null;
  return {
    config,
    doctor(refresh = false) {
      if (!doctorCache || refresh) {
        doctorCache = buildDoctorReport(config);
        // A failed probe run must not be cached forever.
        doctorCache.catch(() => (doctorCache = null));
      }
      return doctorCache;
    },
    async close() {},
  };
}
