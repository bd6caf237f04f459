import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { routes } from '../../src-preload/contract/routes';
import { createHandlers } from '../../src-main/core/api/handlers';
import { createCore, type Core } from '../../src-main/core/core';
import { createRouter, type Router } from '../../src-main/core/api/router';
import type { ScriptStep } from '../../src-main/core/llm/scripted/script';

/**
 * The app as production wires it, without Electron: `createCore` on a temporary data
 * dir and the app's own router over `createHandlers` (what `ipcMain.handle` serves).
 * Benchmarks that use it measure the path a user's click takes, minus the IPC hop.
 */
export interface ProductionApp {
  core: Core;
  router: Router;
  dataDir: string;
  /** One request through the router, as the preload bridge sends it; throws the error envelope. */
  call<T>(route: string, input?: unknown): Promise<T>;
  close(): Promise<void>;
}

const CALLER = { origin: 'app://openai4s', isMainFrame: true };

export function startProductionApp(extraEnv: Record<string, string> = {}, dataDir?: string): ProductionApp {
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-bench-app-'));
  const core = createCore({
    env: { ...process.env, LANG: 'C.UTF-8', OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0', ...extraEnv },
    // As the app's main process asks (src-main/electron/main.ts).
    mainThreadSlice: true,
  });
  const router = createRouter(routes, createHandlers(core));
  return {
    core,
    router,
    dataDir: dir,
    async call<T>(route: string, input?: unknown): Promise<T> {
      const r = await router.handle(route, input, CALLER);
      if (!r.ok) throw new Error(`${route}: ${r.error.code}: ${r.error.message}`);
      return r.data as T;
    },
    async close() {
      await core.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A scripted OpenAI-compatible model in its own process (so its SSE writing does not
 * load the event loop being measured). Returns the env that points the app at it.
 */
export async function startScriptedModelProcess(steps: ScriptStep[]): Promise<{ env: Record<string, string>; close(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-bench-model-'));
  const script = path.join(dir, 'steps.json');
  fs.writeFileSync(script, JSON.stringify(steps));
  const main = path.resolve(import.meta.dirname, '../../tests/support/scriptedModel/main.ts');
  // A model server costs the user's machine nothing (it is remote); this one shares the
  // bench's two cores with the app, so it yields to the app's threads when both want a core.
  // Started under `nice`, so every thread of it has that priority (V8's helpers included:
  // setpriority on its pid after the start lowered only its main thread; the streaming
  // row's lag p99 was 4.8-5.4 ms that way, 3.3-4.4 so, in three interleaved pairs).
  const child: ChildProcess = spawn('nice', ['-n', '10', process.execPath, '--import', 'tsx', main, script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`scripted model exited (${code}) before listening`)));
    child.once('error', (error) => reject(new Error(`scripted model did not start (${error.message}); the bench runs it under \`nice\` from coreutils`)));
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /scripted model at (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
  });
  child.stdout!.resume();
  return {
    env: { OPENAI4S_PROVIDER: 'openai', OPENAI4S_OPENAI_BASE_URL: baseUrl, OPENAI4S_OPENAI_API_KEY: 'bench' },
    close() {
      child.removeAllListeners('exit');
      child.kill('SIGINT');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
