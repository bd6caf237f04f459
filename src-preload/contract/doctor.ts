import { z } from 'zod';
import { route } from './define';
import type { KernelSandboxGap } from './kernel';

/** A version string, or null together with the reason it could not be read. */
export interface Probe {
  version: string | null;
  reason?: string;
}

export interface PythonReport {
  path: string | null;
  /** Where the interpreter path came from: the env var, envs/ declaration, or discovery. */
  source: 'env' | 'declared' | 'discovered' | 'none';
  version: string | null;
  reason?: string;
  packages: { numpy: string | null; pandas: string | null; matplotlib: string | null };
  packageReasons?: Partial<Record<'numpy' | 'pandas' | 'matplotlib', string>>;
  /** When something is missing: the command that installs it on this platform (from envs/). */
  installHint?: string;
}

export interface RReport {
  path: string;
  version: string | null;
  jsonlite: string | null;
  reason?: string;
  installHint?: string;
}

export type SandboxMode = 'auto' | 'enforce' | 'off';

export interface SandboxReport {
  backend: 'bwrap' | 'sandbox-exec' | 'none';
  available: boolean;
  mode: SandboxMode;
  /** What kernels get in this mode: sandboxed, degraded (with the reason), or off by choice. */
  state?: 'sandboxed' | 'degraded' | 'off';
  /** The state in words, e.g. "sandboxed (bwrap)" or "degraded: bubblewrap is not installed". */
  summary?: string;
  path?: string;
  version?: string | null;
  reason?: string;
  /** Why it is unavailable, by case (the window says it in its language), and the system's words. */
  gap?: KernelSandboxGap;
  detail?: string;
  /** bwrap options this version understands that the sandbox relies on (args, seccomp, disable-userns, size). */
  features?: string[];
}

/** One resource limit of every kernel, as it applies on this machine. */
export interface KernelLimitReport {
  name: 'processes' | 'memoryMiB' | 'fileSizeMiB' | 'openFiles' | 'tmpMiB';
  /** null: no limit. */
  value: number | null;
  unit: 'count' | 'MiB';
  source: 'default' | 'env' | 'dotenv';
  /** The variable that overrides it. */
  variable: string;
  /** What enforces it here (empty: nothing does). */
  mechanisms: string[];
  note?: string;
}

export interface KernelLimitsReport {
  limits: KernelLimitReport[];
  cgroup: { controllers: string[]; reasons: string[] };
}

export interface ProviderReport {
  id: string;
  label: string;
  configured: boolean;
  /** Which layer supplied the key: the real environment, the data root's .env, or none. */
  keySource: 'env' | 'dotenv' | 'settings' | 'none';
  keyVariable: string | null;
  baseUrl: string;
  model: string;
  isDefault: boolean;
  /** Why it cannot be used although it has a key (a base URL that is not one). */
  problem?: string;
}

export interface DoctorReport {
  version: string;
  dataDir: string;
  dataDirSource: 'env' | 'default';
  platform: string;
  arch: string;
  node: string;
  electron: string | null;
  python: PythonReport;
  r: RReport | null;
  rReason?: string;
  /** How to install R with jsonlite here, when R is missing. */
  rInstallHint?: string;
  sandbox: SandboxReport;
  /** Resource limits per kernel and what applies each (absent when they could not be read). */
  kernelLimits?: KernelLimitsReport;
  kernelLimitsError?: string;
  providers: ProviderReport[];
  defaultProvider: string;
  generatedAt: string;
  /** Every environment declared in envs/ (issue 18): readiness, what is missing, and this platform's install command. */
  environments?: DoctorEnvironment[];
  environmentsError?: string;
  /** The safety layers of issue 27 (biosecurity screening, pre-execution review of cells) and how each is set. */
  safety?: SafetyReport;
}

/** One safety layer's posture: on unless a variable turns it off explicitly. */
export interface SafetyLayerReport {
  on: boolean;
  source: 'default' | 'env' | 'dotenv';
  /** The variable that turns it off (`off`). */
  variable: string;
  /**
   * How the variable is set, for the window to say it in its language: not at all (on by
   * default), to a value read as on or as off, or to one that is neither (the layer stays on).
   */
  setting?: 'default' | 'on' | 'off' | 'unrecognised';
  /** The variable's value as written, when it is set. */
  value?: string;
  /** All of the above in English (doctor prints it). */
  summary: string;
}

export interface SafetyReport {
  biosecurity: SafetyLayerReport;
  /** With what reads the cells: Python's ast through an interpreter, or the token scan alone. */
  cellReview: SafetyLayerReport & {
    /** In English: what reviews the cells, or why the token scan reviews them alone. */
    reviewer?: string;
    /** The interpreter Python's ast review runs with; null when the token scan reviews alone (`reviewer` says why). */
    reviewerPath?: string | null;
  };
}

export interface DoctorEnvironment {
  id: string;
  language: 'python' | 'r';
  interpreter: string | null;
  version: string | null;
  ready: boolean;
  missing: string[];
  /** Why it cannot run, when it cannot. */
  reason?: string;
  installCommand?: string;
}

export const doctorRoutes = {
  'doctor.get': route<DoctorReport>()(
    z.object({ refresh: z.boolean().optional() }).strict().default({}),
  ),
};
