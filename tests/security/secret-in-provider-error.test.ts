import fs from 'node:fs';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { cliEnv, cliInProcess, cliTestScope } from './support/cliHarness';

/**
 * Attack: the provider answers 401 with a body that echoes the API key (as some
 * gateways and proxies do). The key must not end up in the ledger database, on the
 * terminal, or in an exported package.
 */

// Not shaped like any known key format: only the configured-value scrub can catch it.
const KEY = 'ark-7f3c9e21-b0d4-4a8e-9c55-31f0aa12bd77';
// A second, key-shaped secret the provider also echoes (not configured anywhere).
const OTHER = 'sk-proj-Zq81LmNo4PqRs7TuVw0XyZab12cd';

const scope = cliTestScope();

/** Every file of the data root, as bytes (the SQLite file, its WAL, logs). */
function allBytes(dir: string): Buffer {
  const out: Buffer[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(fs.readFileSync(path.join(entry.parentPath, entry.name)));
  }
  return Buffer.concat(out);
}

describe('a provider error that echoes the key', () => {
  it('is scrubbed from the ledger file, the CLI output and the export', async () => {
    const server = await scope.model([
      {
        error: {
          status: 401,
          body: {
            error: {
              message: `Incorrect API key provided: ${KEY}. Header was "Authorization: Bearer ${KEY}", fallback key ${OTHER}.`,
              type: 'invalid_request_error',
              code: 'invalid_api_key',
            },
          },
        },
      },
    ]);
    const dataDir = scope.dataDir('secret');
    const env = cliEnv(dataDir, server.baseUrl, KEY);

    const run = await cliInProcess(['run', 'hello', '--title', 'secret test'], env);
    expect(run.code).toBe(1);
    // The failure is still explained, only the key is gone.
    expect(run.stderr).toMatch(/Incorrect API key provided: \[redacted\]/);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);

    const sessions = await cliInProcess(['sessions', '--json'], env);
    const sessionId = (JSON.parse(sessions.stdout) as { id: string }[])[0]!.id;
    const show = await cliInProcess(['show', sessionId], env);
    const showJson = await cliInProcess(['show', sessionId, '--json'], env);
    expect(show.stdout).toMatch(/\[redacted\]/);
    // Outside the data root: the CLI never writes into the app’s data folder.
    const zipFile = path.join(scope.dataDir('secret-export'), 'export.zip');
    const exported = await cliInProcess(['export', sessionId, '-o', zipFile], env);
    expect(exported.code).toBe(0);

    for (const out of [run, sessions, show, showJson, exported]) {
      expect(out.stdout + out.stderr).not.toContain(KEY);
      expect(out.stdout + out.stderr).not.toContain(OTHER);
    }
    const disk = allBytes(dataDir);
    expect(disk.includes(Buffer.from(KEY))).toBe(false);
    expect(disk.includes(Buffer.from(OTHER))).toBe(false);

    const entries = unzipSync(new Uint8Array(fs.readFileSync(zipFile)));
    expect(Object.keys(entries)).toContain('ledger/runs.json');
    for (const [name, bytes] of Object.entries(entries)) {
      expect(strFromU8(bytes), name).not.toContain(KEY);
      expect(strFromU8(bytes), name).not.toContain(OTHER);
    }
    // The run record says why it failed, with the key redacted.
    expect(strFromU8(entries['ledger/runs.json']!)).toMatch(/not_configured[\s\S]*\[redacted\]|\[redacted\][\s\S]*not_configured/);

    const verify = await cliInProcess(['verify', zipFile], env);
    expect(verify.code).toBe(0);
  });
});
