import fs from 'node:fs';
import path from 'node:path';
import type { BrowserWindow, Dialog, Shell } from 'electron';
import type { AppNoticeInput } from '../../src-preload/contract/notices';
import type { ReceivedPackage } from '../core/export/receivePackage';

/** The extension of exported session packages (electron-builder.yml fileAssociations). */
export const PACKAGE_EXTENSION = '.openai4s.zip';

/** The session packages named on a command line (Linux opens files as arguments). */
export function packagePathsFromArgv(argv: readonly string[], cwd: string): string[] {
  const found: string[] = [];
  for (const arg of argv) {
    if (arg.startsWith('-') || !arg.toLowerCase().endsWith(PACKAGE_EXTENSION)) continue;
    const file = path.resolve(cwd, arg);
    if (fs.existsSync(file) && fs.statSync(file).isFile() && !found.includes(file)) found.push(file);
  }
  return found;
}

export interface PackageOpenerDeps {
  /** verify first, then unpack (core/export/receivePackage). */
  receive: (file: string) => ReceivedPackage;
  dialog: Pick<Dialog, 'showMessageBox'>;
  shell: Pick<Shell, 'openPath' | 'showItemInFolder'>;
  window: () => BrowserWindow | null;
  /** Tells the window what went wrong where no dialog says it (`app.notice`). */
  notify?: (notice: AppNoticeInput) => void;
}

const MAX_PROBLEMS = 8;

/**
 * Opens packages the OS hands the app (a double-click, Open With, a drop on the Dock icon,
 * a second instance's arguments). Files that arrive before the window is ready wait for
 * it; each is verified before anything else and the answer is a native dialog on the app
 * window: a verified package offers its report and its files, any other says why not.
 */
export class PackageOpener {
  private pending: string[] = [];
  private ready = false;
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly deps: PackageOpenerDeps) {}

  open(file: string): void {
    if (!this.ready) {
      this.pending.push(file);
      return;
    }
    this.chain = this.chain
      .then(() => this.show(file))
      .catch((error: unknown) => {
        console.error('[open-package]', error);
        // The user opened a file and no dialog came: the window says so.
        const name = path.basename(file);
        const message = error instanceof Error ? error.message : String(error);
        this.deps.notify?.({ level: 'error', code: 'package_open_failed', message: `${name} could not be opened: ${message}. Check it from a terminal: openai4s verify "${file}"`, params: { file: name, path: file, message } });
      });
  }

  /** The window can show dialogs now: open what waited. */
  markReady(): void {
    this.ready = true;
    for (const file of this.pending.splice(0)) this.open(file);
  }

  /** Resolves once every package handed over so far has been answered (tests, quit). */
  idle(): Promise<void> {
    return this.chain;
  }

  private async show(file: string): Promise<void> {
    let received: ReceivedPackage;
    try {
      received = this.deps.receive(file);
    } catch (error) {
      received = { file, verified: false, title: null, sessionId: null, exportedAt: null, appVersion: null, files: 0, signature: 'unknown', problems: [error instanceof Error ? error.message : String(error)], folder: null };
    }
    const win = this.deps.window();
    const show = (options: Electron.MessageBoxOptions) => (win ? this.deps.dialog.showMessageBox(win, options) : this.deps.dialog.showMessageBox(options));
    if (received.verified && received.folder) {
      const { response } = await show({
        type: 'info',
        title: 'Session package',
        message: `Verified: ${received.title ?? path.basename(file)}`,
        detail: [
          `${received.files} files match the package's manifest; signature: ${received.signature}.`,
          `Exported ${received.exportedAt ?? 'at an unknown time'} by OpenAI4S ${received.appVersion ?? '(unknown version)'}.`,
          `Unpacked to ${received.folder}`,
        ].join('\n'),
        buttons: ['Open report', 'Show files', 'Close'],
        defaultId: 0,
        cancelId: 2,
      });
      const report = path.join(received.folder, 'README.md');
      if (response === 0) {
        // openPath answers the system's error text ('' when it opened), it does not throw.
        const failed = await this.deps.shell.openPath(report);
        if (failed) this.deps.notify?.({ level: 'warning', code: 'report_open_failed', message: `The package’s report did not open (${failed}). It is at ${report}`, params: { path: report, message: failed } });
      }
      else if (response === 1) this.deps.shell.showItemInFolder(report);
      return;
    }
    const shown = received.problems.slice(0, MAX_PROBLEMS);
    const more = received.problems.length - shown.length;
    await show({
      type: 'warning',
      title: 'Session package',
      message: `Not opened: ${path.basename(file)} did not pass verification`,
      detail: [...shown, ...(more > 0 ? [`... and ${more} more`] : []), '', `The full report from a terminal: openai4s verify "${file}"`].join('\n'),
      buttons: ['Close'],
    });
  }
}
