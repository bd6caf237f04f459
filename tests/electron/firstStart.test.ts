import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DoctorReport } from '../../src-preload/contract/doctor';
import { checkSystemPackagesOnce } from '../../src-main/electron/firstStart';

let dataDir: string;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openai4s-first-start-'));
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const bare = {
  platform: 'linux',
  python: { path: null, source: 'none', version: null, packages: { numpy: null, pandas: null, matplotlib: null } },
  r: null,
  sandbox: { backend: 'none', available: false, mode: 'auto', reason: 'bubblewrap (bwrap) is not installed' },
} as unknown as DoctorReport;

function deps(overrides: Partial<Omit<Parameters<typeof checkSystemPackagesOnce>[0], 'dialog' | 'clipboard'>> = {}) {
  return {
    env: { APPIMAGE: '/home/me/OpenAI4S-0.1.0-linux-x86_64.AppImage' } as NodeJS.ProcessEnv,
    platform: 'linux' as NodeJS.Platform,
    version: '0.1.0',
    dataDir,
    doctor: vi.fn(async () => bare),
    window: () => null,
    ...overrides,
    dialog: { showMessageBox: vi.fn(async (..._args: unknown[]) => ({ response: 0, checkboxChecked: false })) },
    clipboard: { writeText: vi.fn() },
  };
}

describe('the AppImage first-start check of system packages', () => {
  it('says what is missing with the exact apt command, and copies it on request', async () => {
    const d = deps();
    await expect(checkSystemPackagesOnce(d)).resolves.toBe('asked');
    const options = (d.dialog.showMessageBox.mock.calls[0] as unknown as [{ detail: string; buttons: string[] }])[0];
    const command = 'sudo apt install bubblewrap python3 python3-numpy python3-pandas python3-matplotlib r-base-core r-cran-jsonlite';
    expect(options.detail).toContain(`Install them with:\n  ${command}`);
    expect(options.buttons).toEqual(['Copy command', 'Not now']);
    expect(d.clipboard.writeText).toHaveBeenCalledWith(command);
  });

  it('asks once per app version', async () => {
    const d = deps();
    await expect(checkSystemPackagesOnce(d)).resolves.toBe('already-checked');
    expect(d.doctor).not.toHaveBeenCalled();
    await expect(checkSystemPackagesOnce(deps({ version: '0.2.0' }))).resolves.toBe('asked');
  });

  it('stays quiet outside an AppImage (the deb declares them) and when nothing is missing', async () => {
    await expect(checkSystemPackagesOnce(deps({ env: {} }))).resolves.toBe('not-appimage');
    await expect(checkSystemPackagesOnce(deps({ platform: 'darwin' }))).resolves.toBe('not-appimage');
    const ready = { ...bare, python: { path: '/usr/bin/python3', source: 'declared', version: '3.13', packages: { numpy: '2', pandas: '2', matplotlib: '3' } }, r: { path: '/usr/bin/Rscript', version: '4.5', jsonlite: '2' }, sandbox: { backend: 'bwrap', available: true, mode: 'auto', path: '/usr/bin/bwrap' } } as unknown as DoctorReport;
    const d = deps({ version: '0.3.0', doctor: vi.fn(async () => ready) });
    await expect(checkSystemPackagesOnce(d)).resolves.toBe('nothing-missing');
    expect(d.dialog.showMessageBox).not.toHaveBeenCalled();
  });
});
