import type { DoctorReport, ProviderReport, SandboxMode } from '../../../src-preload/contract/doctor';
import type { CoreConfig } from '../config/coreConfig';
import { PROVIDERS } from '../config/providerCatalog';
import { baseUrlProblem, resolveProvider } from '../config/providers';
import { APP_VERSION } from '../config/version';
import { probePython } from './python';
import { probeR } from './r';
import { resolveKernelLimits } from '../config/kernelLimits';
import { appRoot } from '../config/appPaths';
import { currentLimitEnvironment, describeLimits } from '../kernel/limits';
import { decideHidePaths, type HidePathsDecision } from '../kernel/hidePaths';
import { decideSandbox, describeSandbox } from '../kernel/sandbox';
import { probeSandbox } from '../kernel/sandboxProbe';
import { errorMessage } from '../shared/errorMessage';
import { safetyReport } from '../biosecurity/posture';
import { listKernelEnvs } from '../config/kernelEnvs';
import { describeCandidate } from '../environments/catalog';
import { declaredCandidates } from '../environments/discover';
import { ProbeCache } from '../environments/probeCache';
import type { DoctorEnvironment } from '../../../src-preload/contract/doctor';

/** Each declared environment's readiness (probes through `probes`, the app's cache when given). */
async function declaredEnvironments(processEnv: NodeJS.ProcessEnv, probes: ProbeCache): Promise<DoctorEnvironment[]> {
  const declarations = listKernelEnvs(appRoot(processEnv));
  const views = await Promise.all(declaredCandidates(declarations, processEnv).map((c) => describeCandidate(c, declarations, probes)));
  return views.map((v) => ({
    id: v.id,
    language: v.language,
    interpreter: v.interpreter,
    version: v.version,
    ready: v.ready,
    missing: v.missing,
    ...(v.reason ? { reason: v.reason } : {}),
    ...(v.installCommand ? { installCommand: v.installCommand } : {}),
  }));
}

/** Under bwrap, whether kernels' mountinfo will name host paths (OPENAI4S_SANDBOX_HIDE_PATHS). */
async function hostPathsFor(state: string, processEnv: NodeJS.ProcessEnv): Promise<HidePathsDecision | { use: false; mode: 'on'; reason: string } | undefined> {
  if (state !== 'sandboxed' || process.platform !== 'linux') return undefined;
  try {
    return await decideHidePaths(processEnv);
  } catch (error) {
    return { use: false, mode: 'on', reason: errorMessage(error) };
  }
}

/** What the system looks like to the app: interpreters, sandbox, providers. Never a key. */
export async function buildDoctorReport(
  config: CoreConfig,
  sandboxMode: SandboxMode = config.sandboxMode,
  probes: ProbeCache = new ProbeCache(null, { PATH: config.processEnv.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' }),
  /** The default of new messages: Settings' choice in the app (so System and Settings agree), else OPENAI4S_PROVIDER. */
  defaultProvider: string = config.defaultProvider,
): Promise<DoctorReport> {
  const [python, r, probed, environments] = await Promise.all([
    probePython(config.processEnv),
    probeR(config.processEnv),
    probeSandbox(sandboxMode, config.processEnv),
    declaredEnvironments(config.processEnv, probes).catch((error: unknown) => errorMessage(error)),
  ]);
  // The same decision the kernel supervisor takes, so doctor and kernels agree.
  const decision = decideSandbox(sandboxMode, probed).state;
  const sandbox = { ...probed, state: decision.state, summary: describeSandbox(decision, await hostPathsFor(decision.state, config.processEnv)) };
  const providers: ProviderReport[] = PROVIDERS.map((spec) => {
    const resolved = resolveProvider(spec, config.env, config.settingsKey, config.settingsEndpoint);
    const problem = baseUrlProblem(resolved);
    return {
      ...(problem ? { problem } : {}),
      id: spec.id,
      label: spec.label,
      configured: resolved.configured,
      keySource: resolved.keySource,
      keyVariable: resolved.keyVariable,
      baseUrl: resolved.baseUrl,
      model: resolved.model,
      isDefault: spec.id === defaultProvider,
    };
  });
  const report: DoctorReport = {
    version: APP_VERSION,
    dataDir: config.dataDir,
    dataDirSource: config.dataDirSource,
    platform: process.platform,
    arch: process.arch,
    node: process.versions.node,
    electron: process.versions.electron ?? null,
    python,
    r: r.r,
    sandbox,
    providers,
    defaultProvider,
    generatedAt: new Date().toISOString(),
  };
  try {
    const limits = resolveKernelLimits((name) => config.env.get(name), appRoot(config.processEnv));
    const bwrap = decision.state === 'sandboxed' && probed.backend === 'bwrap';
    report.kernelLimits = describeLimits(limits, currentLimitEnvironment(bwrap, probed.features?.includes('size') ?? false));
  } catch (error) {
    report.kernelLimitsError = errorMessage(error);
  }
  // Both safety layers of issue 27 and how each is set (on unless a variable turns it off).
  report.safety = safetyReport(config.env, config.processEnv);
  if (typeof environments === 'string') report.environmentsError = environments;
  else report.environments = environments;
  if (r.reason) report.rReason = r.reason;
  if (!r.r && r.installHint) report.rInstallHint = r.installHint;
  return report;
}
