import path from 'node:path';
import { resolveDataDir } from '../../core/config/dataDir';
import { exportContributors } from '../../core/export/contributors';
import { exportSession } from '../../core/export/exportSession';
import { packageFileProblem } from '../../core/export/packageFile';
import { installationPublicKey } from '../../core/export/signing';
import { verifyExport, type VerifyReport } from '../../core/export/verify';
import type { ZipLimits } from '../../core/export/zipLimits';
import type { CliCommand } from '../command';
import { outputFileProblem } from '../outputFile';
import { usageError } from '../sessionArg';

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'Export a session as a verifiable zip (ledger, notebook, artifacts, evidence, report)',
  usage: [
    'openai4s export <sessionId> -o <file.zip> [--force] [--unsigned] [--json]',
    '',
    'Writes the package to <file.zip>, never inside the app’s data folder and never over a folder,',
    'device or link. --force replaces an existing file of that name. --unsigned skips the signature.',
    '--json reports the file, its entries, the digest and whether it is signed as one JSON object.',
  ].join('\n'),
  options: { output: { type: 'string', short: 'o' }, force: { type: 'boolean' }, unsigned: { type: 'boolean' }, json: { type: 'boolean' } },
  needsCore: true,
  async run({ core, values, positionals, io }) {
    const [sessionId, ...extra] = positionals;
    const out = values.output as string | undefined;
    if (!sessionId || !out) {
      return usageError(io, 'export')(`give a session and an output file: openai4s export <sessionId> -o <file.zip> (list sessions with openai4s sessions).`);
    }
    if (extra.length) {
      return usageError(io, 'export')(`takes one session id; unexpected ${extra.map((e) => JSON.stringify(e)).join(' ')} (the output file goes after -o)`);
    }
    const refused = outputFileProblem(out, core!.config.dataDir, values.force === true);
    if (refused) {
      io.err(`openai4s export: ${refused}`);
      return 1;
    }
    const manifest = exportSession(core!, sessionId, out, exportContributors(() => core!.provenance), { sign: !values.unsigned });
    const file = path.resolve(out);
    if (values.json) io.out(JSON.stringify({ sessionId, file, files: manifest.files.length, digest: manifest.digest, signed: Boolean(manifest.signer) }, null, 2));
    else io.out(`wrote ${file}: ${manifest.files.length} files, digest ${manifest.digest}${manifest.signer ? ', signed' : ', unsigned'}`);
    return 0;
  },
};

/** The limits a trusted package may need raised (a huge, very compressible data file). */
const LIMIT_FLAGS = { 'max-entries': 'maxEntries', 'max-entry-bytes': 'maxEntryBytes', 'max-total-bytes': 'maxTotalBytes', 'max-ratio': 'maxRatio' } as const satisfies Record<string, keyof ZipLimits>;

function limitOverrides(values: Record<string, string | boolean | undefined>): Partial<ZipLimits> | string {
  const limits: Partial<ZipLimits> = {};
  for (const [flag, key] of Object.entries(LIMIT_FLAGS)) {
    const raw = values[flag];
    if (raw === undefined) continue;
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n <= 0) return `--${flag} needs a positive whole number, not ${JSON.stringify(raw)}`;
    limits[key] = n;
  }
  return limits;
}

/** What `verify --json` prints: everything the report knows, problems with their kind. */
function verifyJson(file: string, report: VerifyReport) {
  return {
    ok: report.ok,
    file,
    format: report.format,
    checked: report.checked,
    digest: report.manifest?.digest ?? null,
    covers: report.covers,
    notes: report.notes,
    signature: report.signature,
    problems: report.issues,
  };
}

export const verifyCommand: CliCommand = {
  name: 'verify',
  summary: 'Check an exported session zip: refuse hostile packages, re-hash every file, check the signature',
  usage: 'openai4s verify <file.zip> [--json] [--max-entries N] [--max-entry-bytes N] [--max-total-bytes N] [--max-ratio N]',
  options: { json: { type: 'boolean' }, ...Object.fromEntries(Object.keys(LIMIT_FLAGS).map((flag) => [flag, { type: 'string' as const }])) },
  needsCore: false,
  async run({ values, positionals, io, env }) {
    const [file, ...extra] = positionals;
    if (!file) {
      return usageError(io, 'verify')('give the package to check: openai4s verify <file.zip>.');
    }
    if (extra.length) {
      return usageError(io, 'verify')(`checks one package at a time; unexpected ${extra.map((e) => JSON.stringify(e)).join(' ')} (run openai4s verify once per file)`);
    }
    const limits = limitOverrides(values);
    if (typeof limits === 'string') {
      return usageError(io, 'verify')(limits);
    }
    // Not a file at all (missing, a folder): one line, not a report of one refusal (--json still reports it).
    const notAPackage = values.json ? null : packageFileProblem(file);
    if (notAPackage) {
      io.err(`openai4s verify: ${notAPackage}`);
      return 1;
    }
    // Compare a signature with this installation's key without creating a data root.
    const report = verifyExport(file, { limits, ownPublicKey: installationPublicKey(resolveDataDir(env).path) });
    if (values.json) {
      io.out(JSON.stringify(verifyJson(file, report), null, 2));
      // The report is for the program reading stdout; the person at the terminal still sees why it failed.
      const [first, ...more] = report.issues;
      if (first) io.err(`openai4s verify: ${more.length ? `${first.message.replace(/\.$/, '')} (and ${more.length} more problem${more.length === 1 ? '' : 's'} in the JSON report).` : first.message}`);
    } else {
      if (report.ok) io.out(`ok: ${report.checked} files match ${file}'s manifest (digest ${report.manifest!.digest})`);
      else for (const issue of report.issues) io.err(`${issue.kind}: ${issue.message}`);
      const limit = report.issues.map((i) => Object.entries(LIMIT_FLAGS).find(([, key]) => key === i.limit)?.[0]).find(Boolean);
      if (limit) io.err(`hint: if you trust where ${file} came from, raise the limit: openai4s verify --${limit} <N> ${file}`);
      if (report.manifest && report.signature.status !== 'invalid') (report.ok ? io.out : io.err)(`signature: ${report.signature.summary}`);
      for (const note of report.notes) (report.ok ? io.out : io.err)(`note: ${note}`);
    }
    return report.ok ? 0 : 1;
  },
};
