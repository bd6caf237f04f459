import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ReceivedPackage } from '../../src-main/core/export/receivePackage';
import { PackageOpener, packagePathsFromArgv } from '../../src-main/electron/openPackage';
import { appNoticeSchema } from '../../src-preload/contract/notices';
import { writeSessionPackage } from '../support/sessionPackage';
import { createFakeElectron, type FakeElectron } from './fakeElectron';

let tmp: string;
let dataDir: string;
let good: string;
let edited: string;
const originalArgv = process.argv;
const loaded: FakeElectron[] = [];

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'openai4s-open-package-'));
  dataDir = path.join(tmp, 'data');
  fs.mkdirSync(dataDir);
  const files = { 'README.md': '# Insulin\n', 'notebook.ipynb': '{"cells":[]}' };
  good = writeSessionPackage(path.join(tmp, 'Insulin.openai4s.zip'), files, { signerDataDir: path.join(tmp, 'signer') });
  edited = writeSessionPackage(path.join(tmp, 'edited.OPENAI4S.ZIP'), files, { signerDataDir: path.join(tmp, 'signer'), edit: (e) => (e['README.md'] = new TextEncoder().encode('# changed\n')) });
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
afterEach(async () => {
  process.argv = originalArgv;
  for (const fake of loaded.splice(0)) {
    fake.app.emit('before-quit', { preventDefault: () => {} });
    await vi.waitFor(() => expect(fake.app.quit).toHaveBeenCalled(), { timeout: 15_000 });
  }
  vi.doUnmock('electron');
  vi.unstubAllEnvs();
});

describe('packagePathsFromArgv', () => {
  it('keeps existing .openai4s.zip files named on the command line, resolved against the working folder', () => {
    const argv = ['--no-sandbox', 'Insulin.openai4s.zip', path.join(tmp, 'edited.OPENAI4S.ZIP'), 'missing.openai4s.zip', 'other.zip', '.', 'Insulin.openai4s.zip'];
    expect(packagePathsFromArgv(argv, tmp)).toEqual([good, edited]);
  });
});

describe('PackageOpener', () => {
  const verified: ReceivedPackage = { file: good, verified: true, title: 'Insulin', sessionId: 'ses_1', exportedAt: '2026-12-01T10:00:00.000Z', appVersion: '0.1.0', files: 2, signature: 'signed by this installation', problems: [], folder: '/data/received/ses_1-abc' };

  function opener(received: ReceivedPackage, response = 2) {
    const deps = {
      receive: vi.fn((_file: string) => received),
      dialog: { showMessageBox: vi.fn(async () => ({ response, checkboxChecked: false })) },
      shell: { openPath: vi.fn(async () => ''), showItemInFolder: vi.fn() },
      window: () => null,
    };
    return { deps, opener: new PackageOpener(deps as never) };
  }

  it('waits for the window before verifying anything, then answers each package in turn', async () => {
    const { deps, opener: o } = opener(verified);
    o.open(good);
    expect(deps.receive).not.toHaveBeenCalled();
    o.markReady();
    await o.idle();
    expect(deps.receive).toHaveBeenCalledWith(good);
    expect(deps.dialog.showMessageBox).toHaveBeenCalledWith(expect.objectContaining({ type: 'info', message: 'Verified: Insulin', buttons: ['Open report', 'Show files', 'Close'] }));
  });

  it('opens the report or shows the files of a verified package, as the user chooses', async () => {
    const report = path.join('/data/received/ses_1-abc', 'README.md');
    const first = opener(verified, 0);
    first.opener.markReady();
    first.opener.open(good);
    await first.opener.idle();
    expect(first.deps.shell.openPath).toHaveBeenCalledWith(report);
    const second = opener(verified, 1);
    second.opener.markReady();
    second.opener.open(good);
    await second.opener.idle();
    expect(second.deps.shell.showItemInFolder).toHaveBeenCalledWith(report);
  });

  it('says why a package was not opened, listing its problems and the verify command', async () => {
    const problems = Array.from({ length: 10 }, (_, i) => `file${i}: changed`);
    const { deps, opener: o } = opener({ ...verified, verified: false, folder: null, problems });
    o.markReady();
    o.open(edited);
    await o.idle();
    const options = (deps.dialog.showMessageBox.mock.calls[0] as unknown as [{ type: string; message: string; detail: string }])[0];
    expect(options.type).toBe('warning');
    expect(options.message).toBe('Not opened: edited.OPENAI4S.ZIP did not pass verification');
    expect(options.detail).toContain('file7: changed\n... and 2 more');
    expect(options.detail).toContain(`openai4s verify "${edited}"`);
    expect(deps.shell.openPath).not.toHaveBeenCalled();
  });

  it('tells the window (app.notice, coded) when no dialog could show a package, or its report did not open', async () => {
    const notices: unknown[] = [];
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken = opener(verified);
    broken.deps.dialog.showMessageBox.mockRejectedValueOnce(new Error('the window is gone'));
    const o = new PackageOpener({ ...broken.deps, notify: (n: unknown) => notices.push(n) } as never);
    o.markReady();
    o.open(good);
    await o.idle();
    expect(notices).toEqual([
      expect.objectContaining({ level: 'error', code: 'package_open_failed', params: { file: path.basename(good), path: good, message: 'the window is gone' } }),
    ]);
    expect(error).toHaveBeenCalled();

    notices.length = 0;
    const viewer = opener(verified, 0);
    viewer.deps.shell.openPath.mockResolvedValueOnce('No application knows how to open README.md');
    const v = new PackageOpener({ ...viewer.deps, notify: (n: unknown) => notices.push(n) } as never);
    v.markReady();
    v.open(good);
    await v.idle();
    const report = path.join('/data/received/ses_1-abc', 'README.md');
    expect(notices).toEqual([{ level: 'warning', code: 'report_open_failed', message: expect.stringContaining(report), params: { path: report, message: 'No application knows how to open README.md' } }]);
    for (const n of notices) expect(appNoticeSchema.safeParse(n).success).toBe(true);
    error.mockRestore();
  });
});

describe('main (fake electron): packages handed over by the OS', () => {
  async function load(argv: string[] = []) {
    vi.stubEnv('OPENAI4S_DATA_DIR', dataDir);
    const fake = createFakeElectron();
    fake.dialog.showMessageBox.mockResolvedValue({ response: 2, checkboxChecked: false });
    vi.resetModules();
    vi.doMock('electron', () => fake);
    process.argv = [...originalArgv, ...argv];
    await import('../../src-main/electron/main');
    await new Promise((resolve) => setImmediate(resolve));
    loaded.push(fake);
    return fake;
  }
  const messages = (fake: FakeElectron) => fake.dialog.showMessageBox.mock.calls.map((c) => (c as unknown as [unknown, { message: string }])[1].message);

  it('verifies a package named on the command line once the window shows, and unpacks it into the data root', async () => {
    const fake = await load([good]);
    expect(fake.dialog.showMessageBox).not.toHaveBeenCalled();
    fake.windows[0]!.emit('ready-to-show');
    await vi.waitFor(() => expect(messages(fake)).toEqual(['Verified: Insulin']));
    const [parent, options] = fake.dialog.showMessageBox.mock.calls[0] as unknown as [unknown, { detail: string }];
    expect(parent).toBe(fake.windows[0]);
    expect(options.detail).toContain(`Unpacked to ${path.join(dataDir, 'received')}`);
    expect(fs.readdirSync(path.join(dataDir, 'received'))).toHaveLength(1);
  });

  it("takes macOS's open-file events (before or after ready) and a second instance's arguments", async () => {
    const fake = await load();
    const event = { preventDefault: vi.fn() };
    fake.app.emit('open-file', event, edited);
    expect(event.preventDefault).toHaveBeenCalled();
    fake.windows[0]!.emit('ready-to-show');
    await vi.waitFor(() => expect(messages(fake)).toEqual(['Not opened: edited.OPENAI4S.ZIP did not pass verification']));
    fake.app.emit('second-instance', {}, ['/opt/OpenAI4S/openai4s-desktop', 'Insulin.openai4s.zip'], tmp);
    await vi.waitFor(() => expect(messages(fake)).toHaveLength(2));
    expect(messages(fake)[1]).toBe('Verified: Insulin');
  });
});
