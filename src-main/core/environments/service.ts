import fs from 'node:fs';
import path from 'node:path';
import type { CurrentEnvironment, EnvironmentChange, EnvironmentChangeResult, EnvironmentList } from '../../../src-preload/contract/environments';
import { AppError } from '../../../src-preload/contract/errors';
import type { KernelLanguage } from '../../../src-preload/contract/kernel';
import { appRoot } from '../config/appPaths';
import { KERNEL_ENVS, kernelInterpreter, listKernelEnvs, type KernelEnvDeclaration } from '../config/kernelEnvs';
import type { KernelSupervisor } from '../kernel/supervisor';
import type { EnvChangeInput, EnvChangeRecord } from '../ledger/environmentsRepo';
import type { Ledger } from '../ledger/ledger';
import { buildEnvironment } from './build';
import { EnvironmentCatalog, declaredPackages } from './catalog';
import { findConda } from './conda';
import { checkCreateRequest } from './createRequest';
import { ProbeCache } from './probeCache';

const LANGUAGES: readonly KernelLanguage[] = ['python', 'r'];
const MAX_STARTED = 256;

export interface EnvironmentServiceOptions {
  dataDir: string;
  processEnv: NodeJS.ProcessEnv;
  ledger: () => Ledger;
  kernels: Pick<KernelSupervisor, 'status' | 'restart'>;
}

export interface CreateRequest {
  name: string;
  declaration: string;
  kind?: 'venv' | 'conda' | undefined;
  packages?: string[] | undefined;
}

const toView = (r: EnvChangeRecord): EnvironmentChange => ({
  seq: r.seq,
  language: r.language,
  action: r.action,
  status: r.status,
  environmentId: r.environmentId,
  interpreter: r.interpreter,
  previousEnvironmentId: r.previousEnvironmentId,
  failedStep: r.failedStep,
  detail: r.detail,
  at: r.at,
});

/**
 * Each session's kernel environment per language (issue 18). The pointer is the newest
 * applied row of the session's append-only environment ledger; changing it ends the
 * language's kernel so the next cell starts a new generation in the new environment. A
 * creation is a transaction: built and probed host-side first, the pointer moves only
 * after both succeeded; a failure is recorded (naming its step) and changes nothing else.
 */
export class EnvironmentService {
  readonly probes: ProbeCache;
  readonly catalog: EnvironmentCatalog;
  readonly envsDir: string;
  private readonly building = new Set<string>();
  /** The environment of each generation started in this process (the newest MAX_STARTED). */
  private readonly started = new Map<string, { id: string; interpreter: string; language: KernelLanguage }>();

  constructor(private readonly opts: EnvironmentServiceOptions) {
    this.envsDir = path.join(opts.dataDir, 'envs');
    this.probes = new ProbeCache(path.join(opts.dataDir, 'cache', 'environment-probes.json'), { PATH: opts.processEnv.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' });
    this.catalog = new EnvironmentCatalog({ declarations: () => this.declarations(), envsDir: this.envsDir, processEnv: opts.processEnv, probes: this.probes });
  }

  declarations(): KernelEnvDeclaration[] {
    return listKernelEnvs(appRoot(this.opts.processEnv));
  }

  /** The supervisor's question at each kernel start: the session's chosen environment, or null for the default. */
  kernelEnvironment(sessionId: string, language: KernelLanguage): { id: string; interpreter: string } | null {
    const ledger = this.opts.ledger();
    if (!ledger.sessions.find(sessionId)) return null;
    const row = ledger.environments.current(sessionId, language);
    return row?.interpreter ? { id: row.environmentId, interpreter: row.interpreter } : null;
  }

  current(sessionId: string): Record<KernelLanguage, CurrentEnvironment> {
    const ledger = this.opts.ledger();
    const entries = LANGUAGES.map((language): [KernelLanguage, CurrentEnvironment] => {
      const row = ledger.environments.current(sessionId, language);
      return [language, row ? { environmentId: row.environmentId, interpreter: row.interpreter, isDefault: false } : { ...this.defaultOf(language), isDefault: true }];
    });
    return Object.fromEntries(entries) as Record<KernelLanguage, CurrentEnvironment>;
  }

  /** The session's environment per language (the session must exist), or the defaults when no session is named. */
  currentOrDefault(sessionId?: string): Record<KernelLanguage, CurrentEnvironment> {
    if (sessionId) {
      this.opts.ledger().sessions.require(sessionId);
      return this.current(sessionId);
    }
    return Object.fromEntries(LANGUAGES.map((l) => [l, { ...this.defaultOf(l), isDefault: true }])) as Record<KernelLanguage, CurrentEnvironment>;
  }

  async list(sessionId?: string): Promise<EnvironmentList> {
    if (sessionId) this.opts.ledger().sessions.require(sessionId);
    const environments = await this.catalog.list();
    return {
      sessionId: sessionId ?? null,
      environments,
      current: this.currentOrDefault(sessionId),
      history: sessionId ? this.opts.ledger().environments.history(sessionId).map(toView) : [],
    };
  }

  async use(sessionId: string, environmentId: string): Promise<EnvironmentChangeResult> {
    this.opts.ledger().sessions.require(sessionId);
    const found = await this.catalog.find(environmentId);
    if (!found) throw new AppError('not_found', `No environment "${environmentId}" on this machine. Run env_list (openai4s env list) for the ids, or build one with env_create.`);
    const { view } = found;
    // No interpreter, one that did not run, or one too old for the kernels (its reason says which).
    if (!view.interpreter || view.version === null || view.reason) {
      throw new AppError('unavailable', `The environment ${environmentId} cannot run: ${view.reason ?? 'no interpreter'}.${view.installCommand ? ` Install it with: ${view.installCommand}` : ''}`);
    }
    const detail = view.missing.length ? `missing ${view.missing.join(', ')} of ${view.declaration}` : null;
    const packages = Object.fromEntries(view.packages.map((p) => [p.name, p.version]));
    return this.apply(sessionId, view.language, { action: 'use', environmentId, interpreter: view.interpreter, detail, packages });
  }

  /**
   * Builds an environment and switches the session to it. `exclusive` wraps only the switch
   * (it restarts the kernel): a caller that does not hold the kernel lease passes one that
   * takes it, so a build of minutes never holds the kernel; the agent's tool holds it already.
   */
  async create(sessionId: string, req: CreateRequest, exclusive: <T>(work: () => Promise<T>) => Promise<T> = (work) => work()): Promise<EnvironmentChangeResult> {
    this.opts.ledger().sessions.require(sessionId);
    checkCreateRequest(req.name, req.packages ?? []);
    const declaration = this.declarations().find((d) => d.id === req.declaration);
    if (!declaration) throw new AppError('not_found', `No declaration "${req.declaration}" in envs/. Declared: ${this.declarations().map((d) => d.id).join(', ')}.`);
    const kind = req.kind ?? (declaration.language === 'python' ? 'venv' : 'conda');
    const environmentId = `${kind}:${req.name}`;
    if (this.building.has(req.name)) throw new AppError('conflict', `${environmentId} is being built already; wait for it to finish.`);
    this.building.add(req.name);
    try {
      const built = await buildEnvironment({
        name: req.name,
        declaration,
        kind,
        packages: req.packages ?? [],
        envsDir: this.envsDir,
        processEnv: this.opts.processEnv,
        probes: this.probes,
        conda: kind === 'conda' ? findConda(this.opts.processEnv) : null,
      });
      const language = declaration.language;
      if (!built.ok) {
        const previous = this.current(sessionId)[language];
        this.opts.ledger().environments.append({
          sessionId,
          language,
          action: 'create',
          status: 'failed',
          environmentId,
          interpreter: null,
          previousEnvironmentId: previous.environmentId,
          previousInterpreter: previous.interpreter,
          failedStep: built.step,
          detail: built.detail,
          packages: null,
        });
        throw new AppError('unavailable', `Creating ${environmentId} failed at step "${built.step}": ${built.detail}. Nothing changed: the session still uses ${previous.environmentId}.`);
      }
      return await exclusive(() => this.apply(sessionId, language, { action: 'create', environmentId: built.id, interpreter: built.interpreter, detail: `built at ${built.prefix} from ${declaration.id}`, packages: built.probe.packages }));
    } finally {
      this.building.delete(req.name);
    }
  }

  /** Moves the pointer back to the environment before the current one, without rebuilding anything. */
  async rollback(sessionId: string, language: KernelLanguage): Promise<EnvironmentChangeResult> {
    this.opts.ledger().sessions.require(sessionId);
    const row = this.opts.ledger().environments.current(sessionId, language);
    const label = KERNEL_ENVS[language].label;
    if (!row) throw new AppError('conflict', `The session never changed its ${label} environment, so there is nothing to roll back to. Choose one with env_use.`);
    const target = row.previousEnvironmentId ? { environmentId: row.previousEnvironmentId, interpreter: row.previousInterpreter } : this.defaultOf(language);
    if (!target.interpreter) throw new AppError('unavailable', `Cannot roll back to ${target.environmentId}: it has no interpreter on this machine. Choose another with env_use.`);
    if (!fs.existsSync(target.interpreter)) throw new AppError('unavailable', `Cannot roll back to ${target.environmentId}: its interpreter ${target.interpreter} is gone. Choose another with env_use.`);
    return this.apply(sessionId, language, { action: 'rollback', environmentId: target.environmentId, interpreter: target.interpreter, detail: `back from ${row.environmentId}`, packages: null });
  }

  /** Records an applied change, then ends the language's kernel: its next cell starts a generation in the new environment. */
  private async apply(
    sessionId: string,
    language: KernelLanguage,
    change: Pick<EnvChangeInput, 'action' | 'environmentId' | 'interpreter' | 'detail' | 'packages'>,
  ): Promise<EnvironmentChangeResult> {
    const previous = this.current(sessionId)[language];
    const record = this.opts.ledger().environments.append({
      sessionId,
      language,
      status: 'applied',
      previousEnvironmentId: previous.environmentId,
      previousInterpreter: previous.interpreter,
      failedStep: null,
      ...change,
    });
    const slot = this.opts.kernels.status(sessionId).slots.find((s) => s.language === language);
    const endedGeneration = slot?.generation ?? null;
    if (endedGeneration || slot?.state === 'dead') await this.opts.kernels.restart(sessionId, language);
    return { change: toView(record), current: this.current(sessionId), endedGeneration };
  }

  private defaultOf(language: KernelLanguage): { environmentId: string; interpreter: string | null } {
    try {
      return { environmentId: KERNEL_ENVS[language].id, interpreter: kernelInterpreter(language, this.opts.processEnv).choice.path };
    } catch {
      // The declaration is unreadable: the doctor says why; there is no interpreter to name.
      return { environmentId: KERNEL_ENVS[language].id, interpreter: null };
    }
  }

  /**
   * A generation started: remembers its environment (artifact provenance asks while it
   * lives) and records its environment lock (every installed package with its version).
   */
  async recordLock(e: { generation: string; language: KernelLanguage; environment?: { id: string; interpreter: string } | undefined }): Promise<void> {
    if (!e.environment) return;
    this.started.set(e.generation, { ...e.environment, language: e.language });
    if (this.started.size > MAX_STARTED) this.started.delete(this.started.keys().next().value!);
    const { packages, distributions } = declaredPackages(this.declarations(), e.language);
    const probe = await this.probes.probe(e.language, e.environment.interpreter, packages, distributions);
    if (!probe.ok) return;
    const ledger = this.opts.ledger();
    if (!ledger.kernels.find(e.generation)) return;
    ledger.environments.recordLock({
      generationId: e.generation,
      environmentId: e.environment.id,
      interpreter: e.environment.interpreter,
      interpreterVersion: probe.version,
      lock: { packages: probe.installed, modules: probe.modules, stdlib: probe.stdlib, declared: probe.packages },
    });
  }

  /** What artifact provenance probes for a generation: its environment, interpreter and the packages to report. */
  generationEnvironment(generation: string): { id: string; interpreter: string; packages: string[] } | null {
    const lock = this.started.has(generation) ? null : this.opts.ledger().environments.lock(generation);
    const env = this.started.get(generation) ?? (lock ? { id: lock.environmentId, interpreter: lock.interpreter, language: this.opts.ledger().kernels.find(generation)?.language ?? 'python' } : null);
    if (!env) return null;
    const { id, interpreter, language } = env;
    const declared = this.declarations().find((d) => d.id === id);
    return { id, interpreter, packages: declared?.packages ?? declaredPackages(this.declarations(), language).packages };
  }
}
