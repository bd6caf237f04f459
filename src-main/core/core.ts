import path from 'node:path';
import type { DoctorReport } from '../../src-preload/contract/doctor';
import { loadCoreConfig, type CoreConfig } from './config/coreConfig';
import type { SettingsKeyLookup } from './config/providers';
import { buildDoctorReport } from './doctor/doctor';
import { KernelSupervisor } from './kernel/supervisor';
import { LEDGER_FILE, openLedger, type Ledger } from './ledger/ledger';

/**
 * The main-process core: plain Node, no Electron. The Electron glue, the CLI and the
 * end-to-end harness each create one and bind it to their transport.
 */
export interface Core {
  readonly config: CoreConfig;
  doctor(refresh?: boolean): Promise<DoctorReport>;
  /** Python and R kernels per session (src-main/core/kernel); closed with the core. */
  readonly kernels: KernelSupervisor;
  /** The SQLite ledger at `<dataDir>/ledger.sqlite3`, opened (and crash-repaired) on first use. */
  readonly ledger: Ledger;
  close(): Promise<void>;
}

export interface CoreOptions {
  env?: NodeJS.ProcessEnv;
  settingsKey?: SettingsKeyLookup;
}

export function createCore(options: CoreOptions = {}): Core {
  const config = loadCoreConfig(options.env ?? process.env, options.settingsKey);
  let doctorCache: Promise<DoctorReport> | null = null;
  const kernels = new KernelSupervisor({
    dataDir: config.dataDir,
    processEnv: config.processEnv,
    sandboxMode: config.sandboxMode,
    prewarm: config.processEnv.OPENAI4S_KERNEL_PREWARM === '0' ? [] : ['python'],
  });
  let ledger: Ledger | null = null;
  return {
    config,
    kernels,
    get ledger() {
      return (ledger ??= openLedger(path.join(config.dataDir, LEDGER_FILE)));
    },
    doctor(refresh = false) {
      if (!doctorCache || refresh) {
        doctorCache = buildDoctorReport(config);
        // A failed probe run must not be cached forever.
        doctorCache.catch(() => (doctorCache = null));
      }
      return doctorCache;
    },
    async close() {
      await kernels.close();
      ledger?.close();
      ledger = null;
    },
  };
}
