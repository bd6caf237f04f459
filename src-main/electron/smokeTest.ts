import type { DoctorReport } from '../../src-preload/contract/doctor';

/**
 * `--smoke-test`: what the release workflow runs on each packaged app (under xvfb-run on
 * Linux). The app starts as usual with a throwaway data root, opens its window, runs
 * doctor in the main process, waits until the renderer shows the welcome screen, prints one
 * JSON line and quits: 0 when all of it happened, 1 with the reason otherwise.
 */
export const SMOKE_TEST_FLAG = '--smoke-test';
export const DEFAULT_SMOKE_TIMEOUT_MS = 60_000;

/** What the smoke test needs of the window's web contents (Electron's WebContents has it). */
export interface SmokeContents {
  executeJavaScript(code: string): Promise<unknown>;
  once(event: 'did-fail-load', listener: (event: unknown, code: number, description: string) => void): unknown;
  once(event: 'render-process-gone', listener: (event: unknown, details: { reason: string }) => void): unknown;
}

export interface SmokeResult {
  code: 0 | 1;
  /** The one line to print: the JSON summary on success, the reason on failure. */
  line: string;
}

// The welcome screen's heading (components/Welcome.tsx); its text says the page rendered.
const WELCOME_PROBE = "(() => { const h = document.querySelector('#welcome-title'); return h ? h.textContent : null; })()";

export async function runSmokeTest(options: { contents: SmokeContents; doctor: () => Promise<DoctorReport>; timeoutMs?: number; pollMs?: number }): Promise<SmokeResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SMOKE_TIMEOUT_MS;
  const pollMs = options.pollMs ?? 250;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const failure = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no welcome screen within ${timeoutMs / 1000} s`)), timeoutMs);
    options.contents.once('did-fail-load', (_e, code, description) => reject(new Error(`the window failed to load (${code} ${description})`)));
    options.contents.once('render-process-gone', (_e, details) => reject(new Error(`the renderer process is gone (${details.reason})`)));
  });
  const welcome = (async () => {
    for (;;) {
      const title = await options.contents.executeJavaScript(WELCOME_PROBE);
      if (typeof title === 'string' && title.trim()) return title.trim();
      if (stopped) throw new Error('stopped');
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  })();
  const doctor = options.doctor().catch((error: unknown) => {
    throw new Error(`doctor failed: ${error instanceof Error ? error.message : String(error)}`);
  });
  try {
    const [report, title] = await Promise.race([Promise.all([doctor, welcome]), failure]);
    const summary = {
      smokeTest: 'passed',
      welcome: title,
      doctor: { version: report.version, platform: report.platform, arch: report.arch, electron: report.electron, dataDir: report.dataDir, sandbox: report.sandbox.summary ?? report.sandbox.backend, python: report.python.version, r: report.r?.version ?? null },
    };
    return { code: 0, line: JSON.stringify(summary) };
  } catch (error) {
    return { code: 1, line: `smoke test failed: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    stopped = true;
    clearTimeout(timer);
    // The losers of the race settle later; nothing waits for them.
    welcome.catch(() => {});
    doctor.catch(() => {});
  }
}
