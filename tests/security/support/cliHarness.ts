import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { runCli } from '../../../src-main/cli/main';
import { startScriptedModel, type ScriptedModel, type ScriptStep } from '../../support/scriptedModel';

/**
 * A throwaway data root and the two ways to drive the CLI: in this process through
 * `runCli` (fast, output captured), or the built `openai4s` in a child process (for
 * signals and pipes; build first with `npm run -s build`).
 */

export const ROOT = path.resolve(__dirname, '../../..');
export const BIN = path.join(ROOT, 'bin', 'openai4s.cjs');

export function tempDataDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `o4s-sec-${prefix}-`));
}

/** An environment pointing the `openai` provider at `baseUrl`, with `key`, in `dataDir`. */
export function cliEnv(dataDir: string, baseUrl: string, key: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The developer's own provider settings must not leak into the test.
  for (const name of Object.keys(env)) if (name.startsWith('OPENAI4S_')) delete env[name];
  return {
    ...env,
    OPENAI4S_DATA_DIR: dataDir,
    OPENAI4S_PROVIDER: 'openai',
    OPENAI4S_OPENAI_BASE_URL: baseUrl,
    OPENAI4S_OPENAI_API_KEY: key,
    OPENAI4S_KERNEL_PREWARM: '0',
    ...extra,
  };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function cliInProcess(args: string[], env: NodeJS.ProcessEnv, isTTY = false): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { out: (t) => (stdout += `${t}\n`), err: (t) => (stderr += `${t}\n`), write: (t) => (stdout += t), isTTY }, env);
  return { code, stdout, stderr };
}

export function spawnCli(args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; done: Promise<CliResult & { signal: NodeJS.Signals | null }> } {
  if (!fs.existsSync(path.join(ROOT, 'out', 'main', 'cli.js'))) throw new Error('The CLI is not built: run `npm run -s build` first.');
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const done = new Promise<CliResult & { signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code: code ?? -1, signal, stdout, stderr })),
  );
  return { child, done };
}

/** Polls `condition` (no fixed sleeps); fails with `what` after `timeoutMs`. */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Per-test resources of a CLI case: scripted model servers and data roots, closed and
 * removed after each test. Call once at the top of a test file.
 */
export function cliTestScope() {
  let servers: ScriptedModel[] = [];
  let dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    servers = [];
    dirs = [];
  });
  return {
    async model(steps: ScriptStep[]): Promise<ScriptedModel> {
      const server = await startScriptedModel(steps);
      servers.push(server);
      return server;
    },
    dataDir(prefix: string): string {
      const dir = tempDataDir(prefix);
      dirs.push(dir);
      return dir;
    },
  };
}
