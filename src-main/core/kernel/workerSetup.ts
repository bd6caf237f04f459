import fs from 'node:fs';
import path from 'node:path';
import type { SandboxMode, SandboxReport } from '../../../src-preload/contract/doctor';
import { AppError } from '../../../src-preload/contract/errors';
import type { KernelLanguage } from '../../../src-preload/contract/kernel';
import { appRoot } from '../config/appPaths';
import { KERNEL_ENVS, kernelInterpreter, type InterpreterChoice } from '../config/kernelEnvs';
import { kernelLimitsFromEnv, type KernelLimits } from '../config/kernelLimits';
import { errorMessage } from '../shared/errorMessage';
import { isExecutableFile } from '../shared/executables';
import { decideHidePaths } from './hidePaths';
import { ensureKernelCache, removeLegacySharedCache, type KernelCache } from './kernelCache';
import type { PathViews } from './pathViews';
import { decideSandbox, sandboxSelfTest, type SandboxDecision } from './sandbox';
import type { Spawner } from './spawner/spawner';
import type { SkillMount, WorkerSpec } from './workerSpec';

export interface WorkerSetupOptions {
  dataDir: string;
  processEnv: NodeJS.ProcessEnv;
  /** Read at each kernel start, so a changed setting applies to the next kernel. */
  sandboxMode: () => SandboxMode;
  /** Resource limits per kernel (read when the first kernel starts); default: envs/limits.json with overrides from processEnv. */
  kernelLimits?: KernelLimits | (() => KernelLimits);
  startTimeoutMs?: number;
  /** The shared views of host folders (OPENAI4S_SANDBOX_HIDE_PATHS). */
  views?: PathViews;
  /** The supervisor's spawner, started on first use (bwrap kernels only). */
  spawner?: () => Spawner | undefined;
  /** The enabled skills' folders, asked at each kernel start (mounted read-only for cells). */
  skillDirs?: () => SkillMount[] | Promise<SkillMount[]>;
  /** Test hooks. */
  sandboxReport?: () => Promise<SandboxReport>;
  scripts?: Partial<Record<KernelLanguage, string>>;
}

/** A session's environment names its interpreter; one that is gone is said plainly, with the fix. */
function chosenInterpreter(file: string): InterpreterChoice {
  if (isExecutableFile(file)) return { path: file, source: 'env' };
  return { path: null, source: 'env', reason: `the session's environment interpreter ${file} is not there any more. Choose another environment (env_use) or roll back (env_rollback).` };
}

type CacheEntry = { promise: Promise<KernelCache | null>; value?: KernelCache | null };

/**
 * Decides everything a worker needs before it is spawned: the sandbox (self-test
 * cached), the interpreter, the read-only kernel cache, resource limits and folders.
 */
export class WorkerSetup {
  /** Kernel caches by interpreter and layout: built (or found fresh) once per supervisor. */
  private caches = new Map<string, CacheEntry>();
  private resolvedLimits: KernelLimits | null = null;

  constructor(private readonly opts: WorkerSetupOptions) {}

  async sandbox(): Promise<SandboxDecision> {
    const mode = this.opts.sandboxMode();
    const report = await (this.opts.sandboxReport?.() ?? sandboxSelfTest(mode, this.opts.processEnv));
    const decision = decideSandbox(mode, report);
    if (decision.bwrap && !decision.refuse) {
      try {
        const hide = await decideHidePaths(this.opts.processEnv);
        decision.hidePaths = hide;
        if (!hide.use && hide.refuse) decision.refuse = hide.refuse;
      } catch (error) {
        decision.refuse = errorMessage(error);
      }
    }
    return decision;
  }

  get workersDir(): string {
    return path.join(appRoot(this.opts.processEnv), 'kernel-workers');
  }

  /**
   * The worker's spec; `workspace` (created if missing) or none for a throwaway start.
   * `interpreter`: the session's chosen environment (issue 18); else the language's default.
   */
  async prepare(language: KernelLanguage, workspace: string | null, waitForCache = false, interpreter?: string): Promise<WorkerSpec> {
    const sandbox = await this.sandbox();
    if (sandbox.refuse) throw new AppError('unavailable', sandbox.refuse);
    // Started before the cache build below, so it is ready by the first kernel's spawn.
    const spawner = sandbox.bwrap ? this.opts.spawner?.() : undefined;
    const choice = interpreter ? chosenInterpreter(interpreter) : kernelInterpreter(language, this.opts.processEnv).choice;
    if (!choice.path) throw new AppError('not_configured', `No ${KERNEL_ENVS[language].label} interpreter: ${choice.reason}`);
    const cache = language === 'python' ? await this.kernelCache(choice.path, sandbox, waitForCache) : null;
    if (workspace) fs.mkdirSync(workspace, { recursive: true, mode: 0o700 });
    const spec: WorkerSpec = {
      language,
      interpreter: choice.path,
      workersDir: this.workersDir,
      workspace: workspace ?? '',
      cache,
      tmpRoot: path.join(this.opts.dataDir, 'kernel-tmp'),
      sandbox,
      parentEnv: this.opts.processEnv,
      startTimeoutMs: this.opts.startTimeoutMs ?? 20_000,
    };
    const script = this.opts.scripts?.[language];
    if (script) spec.script = script;
    spec.limits = this.resourceLimits();
    if (this.opts.views) spec.views = this.opts.views;
    if (spawner) spec.spawner = spawner;
    // A skill enabled later reaches a kernel started before it at the kernel's next start.
    const skills = (await this.opts.skillDirs?.())?.filter((s) => fs.existsSync(s.dir));
    if (skills?.length) spec.skills = skills;
    return spec;
  }

  /** Resolves once no cache build is still writing into the data root. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.caches.values()].map((entry) => entry.promise));
  }

  /**
   * The read-only kernel cache for a Python interpreter: built by a trusted step (the
   * imports only) the first time it is needed after the app starts, unless a fresh one
   * exists. `wait` false answers at once: a kernel started meanwhile runs without it.
   */
  private kernelCache(interpreter: string, sandbox: SandboxDecision, wait: boolean): Promise<KernelCache | null> | KernelCache | null {
    const key = `${interpreter}\0${sandbox.state.state}`;
    let entry = this.caches.get(key);
    if (!entry) {
      removeLegacySharedCache(this.opts.dataDir);
      // The cache only speeds up imports: when it cannot be made (even its folder), kernels run without it rather than fail.
      const promise = ensureKernelCache({
        root: path.join(this.opts.dataDir, 'kernel-cache-ro'),
        interpreter,
        workersDir: this.workersDir,
        sandbox,
        parentEnv: this.opts.processEnv,
      }).catch(() => null);
      const created: CacheEntry = { promise };
      void promise.then((value) => (created.value = value));
      this.caches.set(key, (entry = created));
    }
    if (entry.value !== undefined) return entry.value;
    return wait ? entry.promise : null;
  }

  private resourceLimits(): KernelLimits {
    if (!this.resolvedLimits) {
      try {
        const given = this.opts.kernelLimits;
        this.resolvedLimits = typeof given === 'function' ? given() : (given ?? kernelLimitsFromEnv(this.opts.processEnv, appRoot(this.opts.processEnv)).values);
      } catch (error) {
        throw new AppError('not_configured', errorMessage(error));
      }
    }
    return this.resolvedLimits;
  }
}
