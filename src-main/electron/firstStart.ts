import fs from 'node:fs';
import path from 'node:path';
import type { BrowserWindow, Clipboard, Dialog } from 'electron';
import type { DoctorReport } from '../../src-preload/contract/doctor';
import { systemPackagesToInstall } from '../core/doctor/systemPackages';

const MARKER = 'first-start.json';

/**
 * The AppImage's first start (once per app version): the deb declares bubblewrap, Python
 * and R as Recommends, an AppImage cannot, so it asks doctor and, when something is
 * missing, says what with the one apt command that installs it (a button copies it).
 */
export async function checkSystemPackagesOnce(deps: {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  version: string;
  dataDir: string;
  doctor: () => Promise<DoctorReport>;
  dialog: Pick<Dialog, 'showMessageBox'>;
  clipboard: Pick<Clipboard, 'writeText'>;
  window: () => BrowserWindow | null;
}): Promise<'not-appimage' | 'already-checked' | 'nothing-missing' | 'asked'> {
  // The AppImage runtime sets APPIMAGE to the image's path.
  if (deps.platform !== 'linux' || !deps.env.APPIMAGE) return 'not-appimage';
  const marker = path.join(deps.dataDir, MARKER);
  try {
    if ((JSON.parse(fs.readFileSync(marker, 'utf8')) as { systemPackagesCheckedFor?: string }).systemPackagesCheckedFor === deps.version) return 'already-checked';
  } catch {
    // no marker yet, or an unreadable one: check
  }
  const advice = systemPackagesToInstall(await deps.doctor());
  fs.writeFileSync(marker, `${JSON.stringify({ systemPackagesCheckedFor: deps.version })}\n`);
  if (!advice.command) return 'nothing-missing';
  const win = deps.window();
  const options: Electron.MessageBoxOptions = {
    type: 'info',
    title: 'OpenAI4S',
    message: 'Some things the kernels need are not installed',
    detail: [...advice.reasons.map((r) => `• ${r}`), '', 'Install them with:', `  ${advice.command}`, '', 'The app runs without them; the System page shows what is missing.'].join('\n'),
    buttons: ['Copy command', 'Not now'],
    defaultId: 0,
    cancelId: 1,
  };
  const { response } = await (win ? deps.dialog.showMessageBox(win, options) : deps.dialog.showMessageBox(options));
  if (response === 0) deps.clipboard.writeText(advice.command);
  return 'asked';
}
