import path from 'node:path';
import { exportContributors } from '../../core/export/contributors';
import { exportSession } from '../../core/export/exportSession';
import { verifyExport } from '../../core/export/verify';
import type { CliCommand } from '../command';

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'Export a session as a verifiable zip (ledger, notebook, artifacts, evidence, report)',
  usage: 'openai4s export <sessionId> -o <file.zip>',
  options: { output: { type: 'string', short: 'o' } },
  needsCore: true,
  async run({ core, values, positionals, io }) {
    const [sessionId] = positionals;
    const out = values.output as string | undefined;
    if (!sessionId || !out) {
      io.err('Usage: openai4s export <sessionId> -o <file.zip> (list sessions with `openai4s sessions`)');
      return 2;
    }
    const manifest = exportSession(core!, sessionId, out, exportContributors(core!));
    io.out(`wrote ${path.resolve(out)}: ${manifest.files.length} files, digest ${manifest.digest}`);
    return 0;
  },
};

export const verifyCommand: CliCommand = {
  name: 'verify',
  summary: 'Re-hash an exported session zip against its manifest',
  usage: 'openai4s verify <file.zip> [--json]',
  options: { json: { type: 'boolean' } },
  needsCore: false,
  async run({ values, positionals, io }) {
    const [file] = positionals;
    if (!file) {
      io.err('Usage: openai4s verify <file.zip>');
      return 2;
    }
    const report = verifyExport(file);
    if (values.json) io.out(JSON.stringify({ ok: report.ok, checked: report.checked, problems: report.problems, digest: report.manifest?.digest ?? null }, null, 2));
    else if (report.ok) io.out(`ok: ${report.checked} files match ${file}'s manifest (digest ${report.manifest!.digest})`);
    else for (const p of report.problems) io.err(`changed: ${p}`);
    return report.ok ? 0 : 1;
  },
};
