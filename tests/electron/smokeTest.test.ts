import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runSmokeTest } from '../../src-main/electron/smokeTest';
import { createFakeElectron, type FakeElectron } from './fakeElectron';
import type { DoctorReport } from '../../src-preload/contract/doctor';

const originalArgv = process.argv;

/** main.ts loaded as `electron . --smoke-test` against a fresh fake electron. */
async function smokeMain(): Promise<FakeElectron> {
  const fake = createFakeElectron();
  vi.resetModules();
  vi.doMock('electron', () => fake);
  process.argv = [...originalArgv, '--smoke-test'];
  await import('../../src-main/electron/main');
  await new Promise((resolve) => setImmediate(resolve));
  return fake;
}

/** What the main process wrote: stdout and stderr lines. */
function captureOutput() {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (out.push(String(chunk)), true));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (err.push(String(chunk)), true));
  return { out, err, restore: () => (stdout.mockRestore(), stderr.mockRestore()) };
}

afterEach(() => {
  process.argv = originalArgv;
  vi.doUnmock('electron');
  vi.unstubAllEnvs();
});

describe('--smoke-test in the Electron main process (fake electron)', () => {
  it('opens the window, runs doctor in main, waits for the welcome screen, prints one JSON line and exits 0', async () => {
    vi.stubEnv('OPENAI4S_DATA_DIR', undefined);
    const output = captureOutput();
    try {
      const fake = await smokeMain();
      expect(fake.app.requestSingleInstanceLock).not.toHaveBeenCalled();
      const win = fake.windows[0]!;
      expect(win.loadURL).toHaveBeenCalledWith('app://openai4s/index.html');
      // The renderer paints a little later; the smoke test keeps asking until it has.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(fake.app.exit).not.toHaveBeenCalled();
      win.webContents.page = (code) => (code.includes('#welcome-title') ? 'Ask a research question' : null);
      await vi.waitFor(() => expect(fake.app.exit).toHaveBeenCalled(), { timeout: 45_000 });
      expect(fake.app.exit).toHaveBeenCalledWith(0);
      const line = output.out.join('').trim();
      const summary = JSON.parse(line) as { smokeTest: string; welcome: string; doctor: { dataDir: string; platform: string; version: string } };
      expect(summary).toMatchObject({ smokeTest: 'passed', welcome: 'Ask a research question', doctor: { platform: process.platform } });
      // A throwaway data root, removed on exit: the smoke test never touches the user's.
      expect(path.basename(summary.doctor.dataDir)).toMatch(/^openai4s-smoke-/);
      expect(fs.existsSync(summary.doctor.dataDir)).toBe(false);
      expect(output.err.join('')).not.toContain('smoke test failed');
    } finally {
      output.restore();
    }
  }, 60_000);

  it('exits 1 with the reason in one line when the welcome screen never renders', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openai4s-smoke-given-'));
    vi.stubEnv('OPENAI4S_DATA_DIR', dataDir);
    vi.stubEnv('OPENAI4S_SMOKE_TIMEOUT_MS', '1500');
    const output = captureOutput();
    try {
      const fake = await smokeMain();
      await vi.waitFor(() => expect(fake.app.exit).toHaveBeenCalled(), { timeout: 30_000 });
      expect(fake.app.exit).toHaveBeenCalledWith(1);
      expect(output.err.join('')).toContain('smoke test failed: no welcome screen within 1.5 s\n');
      expect(output.out.join('')).toBe('');
      // A data root that was given is the caller's: left in place.
      expect(fs.existsSync(dataDir)).toBe(true);
    } finally {
      output.restore();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('runSmokeTest', () => {
  const doctor = async () => ({ version: '0.1.0', platform: 'linux', arch: 'x64', electron: '45.5.0', dataDir: '/d', sandbox: { backend: 'bwrap', available: true, mode: 'auto', summary: 'sandboxed (bwrap)' }, python: { version: '3.13.5' }, r: null }) as unknown as DoctorReport;
  const contents = () => {
    const listeners = new Map<string, (...args: never[]) => void>();
    return {
      listeners,
      executeJavaScript: vi.fn(async () => null as unknown),
      once: vi.fn((event: string, listener: (...args: never[]) => void) => listeners.set(event, listener)),
    };
  };

  it('fails with the reason when the renderer process dies', async () => {
    const c = contents();
    const running = runSmokeTest({ contents: c, doctor, timeoutMs: 20_000, pollMs: 20 });
    (c.listeners.get('render-process-gone') as unknown as (e: unknown, d: { reason: string }) => void)({}, { reason: 'crashed' });
    await expect(running).resolves.toEqual({ code: 1, line: 'smoke test failed: the renderer process is gone (crashed)' });
  });

  it('fails when doctor throws, naming doctor', async () => {
    const c = contents();
    c.executeJavaScript.mockResolvedValue('Welcome');
    await expect(runSmokeTest({ contents: c, doctor: async () => Promise.reject(new Error('ledger locked')), timeoutMs: 5_000 })).resolves.toEqual({ code: 1, line: 'smoke test failed: doctor failed: ledger locked' });
  });

  it('reports the sandbox and interpreters doctor found', async () => {
    const c = contents();
    c.executeJavaScript.mockResolvedValue('Welcome');
    const result = await runSmokeTest({ contents: c, doctor, timeoutMs: 5_000 });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.line)).toEqual({ smokeTest: 'passed', welcome: 'Welcome', doctor: { version: '0.1.0', platform: 'linux', arch: 'x64', electron: '45.5.0', dataDir: '/d', sandbox: 'sandboxed (bwrap)', python: '3.13.5', r: null } });
  });
});
