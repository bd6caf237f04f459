#!/usr/bin/env -S npx tsx
// Checks an unpacked app that electron-builder made, before it is released:
//   npm run -s verify-release -- release/linux-unpacked [--artifacts release] [--json]
// the executable, the app's files in app.asar (and every package main requires), ASAR
// integrity, the extra resources byte for byte, the native addons' ABI and CPU, the fuses
// read back from the binary, and the sizes. One line per check; exit 1 when any fails.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_MAX_APP_MIB, DEFAULT_MAX_ARTIFACT_MIB, verifyRelease } from './release/verifyRelease';

const USAGE = 'usage: verify-release <unpacked app dir> [--artifacts DIR] [--electron-abi N] [--max-app-mib N] [--max-artifact-mib N] [--json]';
const ARTIFACT = /\.(dmg|AppImage|deb|zip)$/;

function positiveNumber(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(Number.isFinite(n) && n > 0)) throw new Error(`${flag} needs a positive number, not ${JSON.stringify(value)}`);
  return n;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      artifacts: { type: 'string' },
      'electron-abi': { type: 'string' },
      'max-app-mib': { type: 'string' },
      'max-artifact-mib': { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new Error(`give one unpacked app folder. ${USAGE}`);
  const artifacts = values.artifacts
    ? fs.readdirSync(values.artifacts).filter((f) => ARTIFACT.test(f)).map((f) => path.join(values.artifacts!, f))
    : [];
  const report = await verifyRelease({
    appDir: positionals[0]!,
    projectDir: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'),
    ...(values['electron-abi'] ? { electronAbi: positiveNumber(values['electron-abi'], '--electron-abi')! } : {}),
    artifacts,
    maxAppMiB: positiveNumber(values['max-app-mib'], '--max-app-mib') ?? DEFAULT_MAX_APP_MIB,
    maxArtifactMiB: positiveNumber(values['max-artifact-mib'], '--max-artifact-mib') ?? DEFAULT_MAX_ARTIFACT_MIB,
  });
  if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    for (const check of report.checks) (check.ok ? process.stdout : process.stderr).write(`${check.ok ? 'ok  ' : 'FAIL'} ${check.name}: ${check.detail}\n`);
    const failed = report.checks.filter((c) => !c.ok).length;
    (failed ? process.stderr : process.stdout).write(
      failed ? `verify-release: ${failed} of ${report.checks.length} checks failed\n` : `verify-release: all ${report.checks.length} checks passed (${report.platform})\n`,
    );
  }
  return report.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`verify-release: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
