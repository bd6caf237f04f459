import fs from 'node:fs';
import path from 'node:path';
import type { KernelLanguage } from '../../../src-preload/contract/kernel';
import { probeEnvironment, type EnvProbeResult } from './probe';

interface Entry {
  language: KernelLanguage;
  /** The interpreter file's mtime (a reinstalled interpreter is probed again). */
  interpreterMtimeMs: number;
  /** mtime of each package folder: installing or removing a package changes its folder. */
  sites: Record<string, number>;
  /** A failure is kept too (an interpreter that cannot run the probe, e.g. Python 2): until the interpreter changes. */
  probe: EnvProbeResult;
}

function mtimeOf(file: string): number | null {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    // Gone: the entry is stale.
    return null;
  }
}

/**
 * Probes each interpreter once and keeps the answer, in memory and in
 * `<data root>/cache/environment-probes.json` (the CLI starts cold every time), keyed by
 * the interpreter's path. An entry is used while the interpreter and every package folder
 * it reported keep their mtimes and it covers the packages asked for; otherwise the
 * interpreter is probed again. A failed probe is kept until the interpreter changes.
 */
export class ProbeCache {
  private entries: Record<string, Entry> | null = null;
  private inflight = new Map<string, Promise<EnvProbeResult>>();
  /** Probes actually run (diagnostics and the cache test). */
  probesRun = 0;
  /** Set when the app closes: a probe still running then answers its caller but writes no file. */
  private closed = false;

  constructor(
    private readonly file: string | null,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  async probe(language: KernelLanguage, interpreter: string, packages: readonly string[], distributions: Record<string, string> = {}): Promise<EnvProbeResult> {
    const fresh = this.fresh(interpreter, language, packages);
    if (fresh) return fresh;
    const key = `${language}\0${interpreter}\0${[...packages].sort().join(',')}`;
    let running = this.inflight.get(key);
    if (!running) {
      running = this.run(language, interpreter, packages, distributions).finally(() => this.inflight.delete(key));
      this.inflight.set(key, running);
    }
    return running;
  }

  /** Forgets every entry: the next listing probes each interpreter again (env.list with refresh). */
  clear(): void {
    this.entries = {};
    this.save();
  }

  /** Forgets an interpreter (a rebuilt environment at the same path). */
  forget(interpreter: string): void {
    const entries = this.load();
    if (!(interpreter in entries)) return;
    delete entries[interpreter];
    this.save();
  }

  private fresh(interpreter: string, language: KernelLanguage, packages: readonly string[]): EnvProbeResult | null {
    const entry = this.load()[interpreter];
    if (!entry || entry.language !== language) return null;
    if (mtimeOf(interpreter) !== entry.interpreterMtimeMs) return null;
    const probe = entry.probe;
    if (!probe.ok) return probe;
    for (const [dir, mtime] of Object.entries(entry.sites)) if (mtimeOf(dir) !== mtime) return null;
    if (!packages.every((p) => p in probe.packages)) return null;
    return probe;
  }

  private async run(language: KernelLanguage, interpreter: string, packages: readonly string[], distributions: Record<string, string>): Promise<EnvProbeResult> {
    const interpreterMtimeMs = mtimeOf(interpreter);
    // The interpreter's mtime is read before probing: a reinstall during the probe leaves the entry stale, not wrongly fresh.
    const previous = this.load()[interpreter];
    const asked = [...new Set([...packages, ...(previous?.language === language && previous.probe.ok ? Object.keys(previous.probe.packages) : [])])];
    this.probesRun++;
    const result = await probeEnvironment(language, interpreter, asked, { distributions, env: this.env });
    if (interpreterMtimeMs === null) return result;
    const sites: Record<string, number> = {};
    for (const dir of result.ok ? result.sitePaths : []) {
      const mtime = mtimeOf(dir);
      if (mtime !== null) sites[dir] = mtime;
    }
    this.load()[interpreter] = { language, interpreterMtimeMs, sites, probe: result };
    this.save();
    return result;
  }

  private load(): Record<string, Entry> {
    if (this.entries) return this.entries;
    this.entries = {};
    if (!this.file) return this.entries;
    try {
      const parsed = JSON.parse(fs.readFileSync(this.file, 'utf8')) as { version?: number; entries?: Record<string, Entry> };
      if (parsed.version === 1 && parsed.entries) this.entries = parsed.entries;
    } catch {
      // Missing or unreadable: start empty (it is only a cache).
    }
    return this.entries;
  }

  /**
   * The app is closing: nothing is written from now on. A probe can run for up to a minute;
   * one that finished after the close would write into a data folder its owner may be
   * removing (a test's temporary folder: ENOTEMPTY), or has handed to another process.
   */
  close(): void {
    this.closed = true;
  }

  private save(): void {
    if (!this.file || this.closed) return;
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify({ version: 1, entries: this.entries }));
      fs.renameSync(tmp, this.file);
    } catch {
      // A cache that cannot be written only costs a probe next time.
    }
  }
}
