import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ComputeResources, ComputeTargetConfig, ComputeTargetView } from '../../../src-preload/contract/compute';
import { AppError } from '../../../src-preload/contract/errors';
import { sshWhere } from './transport';

/**
 * The configured compute targets: `<data root>/compute/targets.json`, written by Settings
 * (compute.targets.save) or by hand. A target names key files; it never holds a key or a
 * password, and a value that looks like one is refused with the reason.
 */

export const TARGETS_FILE = path.join('compute', 'targets.json');

const name = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'a target name is 1-40 lower-case letters, digits, "_" or "-"');
const absolute = z.string().max(1000).regex(/^\//, 'an absolute path, e.g. /home/me/.ssh/id_ed25519');
// A host, user or partition goes on an ssh or sbatch command line: plain words only.
const word = (what: string) => z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,252}$/, `${what} is letters, digits, ".", "_" or "-"`);

export const resourcesSchema = z
  .object({
    cpus: z.number().int().min(1).max(4096).optional(),
    memoryMb: z.number().int().min(1).max(64 * 1024 * 1024).optional(),
    timeLimitMin: z.number().int().min(1).max(365 * 24 * 60).optional(),
    gpus: z.number().int().min(0).max(64).optional(),
    partition: word('a partition').optional(),
  })
  .strict();

export const targetSchema = z
  .object({
    name,
    kind: z.enum(['slurm', 'ssh']),
    host: word('a host').optional(),
    port: z.number().int().min(1).max(65535).optional(),
    user: word('a user').optional(),
    identityFile: absolute.optional(),
    knownHostsFile: absolute.optional(),
    partition: word('a partition').optional(),
    account: word('an account').optional(),
    defaults: resourcesSchema.optional(),
    workRoot: z.string().min(1).max(1000).regex(/^[^\0\n'"`$\\]+$/, 'a work root is a path without quotes, "$", "`", "\\" or newlines').optional(),
    python: z.string().regex(/^[A-Za-z0-9_./+-]{1,200}$/).optional(),
    rscript: z.string().regex(/^[A-Za-z0-9_./+-]{1,200}$/).optional(),
  })
  .strict()
  .refine((t) => t.kind !== 'ssh' || t.host, { message: 'an ssh target needs a host' });

const fileSchema = z.object({ targets: z.array(targetSchema).max(100) }).strict();

/** Anything that looks like key material or a password field is refused before it is stored. */
function refuseSecrets(raw: unknown): void {
  const text = JSON.stringify(raw ?? null);
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----|"(password|passphrase|secret|token|privateKey|key)"\s*:/i.test(text)) {
    throw new AppError(
      'invalid_input',
      'A compute target must not hold a key, password or token. Name the key file (identityFile) or use ssh-agent; the app never stores or reads the key itself.',
    );
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(target)'}: ${i.message}`).join('; ');
}

/** A job's resources as they will be asked of the target: refused with each bad field named, before anything is staged. */
export function parseResources(raw: ComputeResources): ComputeResources {
  const r = resourcesSchema.safeParse(raw);
  if (!r.success) {
    throw new AppError(
      'invalid_input',
      `Invalid job resources: ${describeIssues(r.error)}. Ask for whole numbers: cpus 1-4096, memory 1 MB to 64 TB, a time limit of 1 minute to 1 year, gpus 0-64.`,
    );
  }
  return r.data;
}

export function parseTarget(raw: unknown): ComputeTargetConfig {
  refuseSecrets(raw);
  const r = targetSchema.safeParse(raw);
  if (!r.success) throw new AppError('invalid_input', `Invalid compute target: ${describeIssues(r.error)}.`);
  return r.data;
}

export function targetView(t: ComputeTargetConfig): ComputeTargetView {
  return { ...t, where: t.host ? sshWhere(t) : 'this machine' };
}

export class TargetStore {
  readonly file: string;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, TARGETS_FILE);
  }

  list(): ComputeTargetConfig[] {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new AppError('invalid_input', `${this.file} is not valid JSON (${(error as Error).message}); fix or remove it.`);
    }
    refuseSecrets(raw);
    const r = fileSchema.safeParse(raw);
    if (!r.success) throw new AppError('invalid_input', `${this.file}: ${describeIssues(r.error)}. Fix the file or re-save the targets in Settings.`);
    return r.data.targets;
  }

  get(targetName: string): ComputeTargetConfig {
    const targets = this.list();
    const found = targets.find((t) => t.name === targetName);
    if (!found) {
      const known = targets.map((t) => t.name).join(', ');
      throw new AppError(
        'not_configured',
        `No compute target "${targetName}". ${known ? `Configured: ${known}.` : 'None is configured:'} Add one in Settings → Compute or in ${this.file} (see README, "Adding a cluster").`,
      );
    }
    return found;
  }

  /** Adds or replaces a target by name. */
  save(raw: unknown): ComputeTargetConfig {
    const target = parseTarget(raw);
    const targets = this.list().filter((t) => t.name !== target.name);
    this.write([...targets, target]);
    return target;
  }

  remove(targetName: string): boolean {
    const targets = this.list();
    const kept = targets.filter((t) => t.name !== targetName);
    if (kept.length === targets.length) return false;
    this.write(kept);
    return true;
  }

  private write(targets: ComputeTargetConfig[]): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `${JSON.stringify({ targets }, null, 2)}\n`, { mode: 0o600 });
    fs.renameSync(tmp, this.file);
  }
}
