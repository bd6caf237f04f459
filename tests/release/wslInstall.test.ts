import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEB_RECOMMENDS } from '../../src-main/core/doctor/systemPackages';

// The WSL2 launcher's in-distribution install script, run with Debian's /bin/sh (dash)
// against a local folder standing in for the downloaded Linux build. No root, no network:
// the prefix is a temporary folder, apt-get and dpkg-query are recording stubs.
const script = path.resolve(__dirname, '../../packaging/windows/install-in-distro.sh');
const APP_PACKAGES = ['libgtk-3-0', 'libnotify4', 'libnss3', 'libxss1', 'libxtst6', 'xdg-utils', 'libatspi2.0-0', 'libuuid1', 'libsecret-1-0', 'libgbm1', 'libasound2'];

let tmp: string;
let prefix: string;
let home: string;

function writeExecutable(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, { mode: 0o755 });
  return file;
}

/** A stand-in for release/linux-unpacked: an "executable" that says how it was started, and app.asar. */
function linuxBuild(version: string): string {
  const dir = path.join(tmp, `build-${version}`, 'linux-unpacked');
  writeExecutable(path.join(dir, 'openai4s-desktop'), `#!/bin/sh\necho "openai4s-desktop ${version} $*"\n`);
  fs.mkdirSync(path.join(dir, 'resources', 'envs'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'resources', 'app.asar'), 'asar');
  fs.writeFileSync(path.join(dir, 'resources', 'envs', 'limits.json'), '{}');
  return dir;
}

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'openai4s-wsl-'));
  prefix = path.join(tmp, 'prefix');
  home = path.join(tmp, 'home');
  fs.mkdirSync(home);
  writeExecutable(path.join(tmp, 'stubs', 'apt-get'), `#!/bin/sh\necho "$*" >> "${tmp}/apt.log"\nexit \${APT_EXIT:-0}\n`);
  // dpkg-query -W -f=... PKG: "installed" for the packages listed in installed.txt.
  writeExecutable(path.join(tmp, 'stubs', 'dpkg-query'), `#!/bin/sh\nfor last; do :; done\ngrep -qx "$last" "${tmp}/installed.txt" 2>/dev/null && echo "install ok installed"\nexit 0\n`);
  const sysroot = path.join(tmp, 'sysroot');
  fs.mkdirSync(path.join(sysroot, 'etc'), { recursive: true });
  fs.mkdirSync(path.join(sysroot, 'proc', 'sys', 'kernel'), { recursive: true });
  fs.mkdirSync(path.join(sysroot, 'mnt', 'wslg'), { recursive: true });
  fs.writeFileSync(path.join(sysroot, 'etc', 'os-release'), 'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nNAME="Debian GNU/Linux"\n');
  fs.writeFileSync(path.join(sysroot, 'proc', 'sys', 'kernel', 'osrelease'), '6.6.87.2-microsoft-standard-WSL2\n');
});

function run(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync('/bin/sh', [script, ...args], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: home,
      OPENAI4S_PREFIX: prefix,
      OPENAI4S_APT: path.join(tmp, 'stubs', 'apt-get'),
      OPENAI4S_DPKG_QUERY: path.join(tmp, 'stubs', 'dpkg-query'),
      OPENAI4S_SYSROOT: path.join(tmp, 'sysroot'),
      DISPLAY: ':0',
      ...env,
    },
  });
  return { ...result, lines: result.stdout.trim().split('\n') };
}
const aptLog = () => (fs.existsSync(path.join(tmp, 'apt.log')) ? fs.readFileSync(path.join(tmp, 'apt.log'), 'utf8').trim().split('\n') : []);
const markInstalled = (packages: string[]) => fs.writeFileSync(path.join(tmp, 'installed.txt'), `${packages.join('\n')}\n`);
const lib = () => path.join(prefix, 'lib', 'openai4s');

describe('packaging/windows/install-in-distro.sh (POSIX sh, on Debian)', () => {
  it('installs the build and every missing package on a fresh distribution, with progress, and the launcher starts the app', () => {
    const result = run(['--source', linuxBuild('0.1.0'), '--version', '0.1.0']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.lines.filter((l) => l.startsWith('['))).toEqual([
      '[1/5] Checking this distribution',
      '[2/5] Installing system packages (apt)',
      '[3/5] Installing OpenAI4S 0.1.0',
      '[4/5] Adding the launcher and the Start menu entry',
      '[5/5] Done',
    ]);
    expect(result.stdout).toContain('Debian GNU/Linux 13 (trixie) on WSL2 (6.6.87.2-microsoft-standard-WSL2)');
    // apt: the lists first, then exactly the Electron libraries and the deb's Recommends.
    expect(aptLog()).toEqual(['update -q', `install -y -q --no-install-recommends ${[...APP_PACKAGES, ...DEB_RECOMMENDS].join(' ')}`]);
    expect(fs.readlinkSync(path.join(lib(), 'current'))).toBe('0.1.0');
    const launcher = path.join(prefix, 'bin', 'openai4s-desktop');
    expect(spawnSync(launcher, ['--flag', 'pkg.openai4s.zip'], { encoding: 'utf8' }).stdout).toBe('openai4s-desktop 0.1.0 --flag pkg.openai4s.zip\n');
    const desktop = fs.readFileSync(path.join(home, '.local', 'share', 'applications', 'openai4s.desktop'), 'utf8');
    expect(desktop).toContain(`Exec="${launcher}" %U`);
    expect(desktop).toContain('MimeType=application/x-openai4s-package;');
  });

  it('asks apt only for what is missing, and nothing when everything is there', () => {
    markInstalled([...APP_PACKAGES, ...DEB_RECOMMENDS].filter((p) => p !== 'python3-pandas' && p !== 'r-cran-jsonlite'));
    expect(run(['--source', linuxBuild('0.1.0'), '--version', '0.1.0']).status).toBe(0);
    expect(aptLog()).toEqual(['update -q', 'install -y -q --no-install-recommends python3-pandas r-cran-jsonlite']);
    markInstalled([...APP_PACKAGES, ...DEB_RECOMMENDS]);
    const again = run(['--source', linuxBuild('0.1.0'), '--version', '0.1.0']);
    expect(again.stdout).toContain('all system packages are present');
    expect(again.stdout).toContain('OpenAI4S 0.1.0 is installed already');
    expect(aptLog()).toHaveLength(2);
  });

  it('updates from the release tarball, switching to the new version and removing the old one', () => {
    markInstalled([...APP_PACKAGES, ...DEB_RECOMMENDS]);
    expect(run(['--source', linuxBuild('0.1.0'), '--version', '0.1.0']).status).toBe(0);
    const tarball = path.join(tmp, 'OpenAI4S-0.2.0-linux-x64.tar.gz');
    const build = linuxBuild('0.2.0');
    expect(spawnSync('tar', ['-czf', tarball, '-C', path.dirname(build), 'linux-unpacked']).status).toBe(0);
    const update = run(['--source', tarball, '--version', '0.2.0']);
    expect(update.status).toBe(0);
    expect(fs.readlinkSync(path.join(lib(), 'current'))).toBe('0.2.0');
    expect(fs.readdirSync(lib()).sort()).toEqual(['0.2.0', 'current']);
    expect(spawnSync(path.join(prefix, 'bin', 'openai4s-desktop'), [], { encoding: 'utf8' }).stdout).toBe('openai4s-desktop 0.2.0 \n');
  });

  it('stops with exit 3 and the command to run when apt fails, before installing the app', () => {
    const result = run(['--source', linuxBuild('0.1.0'), '--version', '0.1.0'], { APT_EXIT: '100' });
    expect(result.status).toBe(3);
    expect(result.stderr.trim().split('\n')).toEqual(['install-in-distro.sh: apt-get update failed: check the distribution\'s network, then run OpenAI4S again']);
    expect(fs.existsSync(lib())).toBe(false);
  });

  it('refuses a folder that is not a Linux build, leaving nothing behind', () => {
    const notBuild = path.join(tmp, 'downloads');
    fs.mkdirSync(notBuild);
    fs.writeFileSync(path.join(notBuild, 'readme.txt'), 'hi');
    const result = run(['--source', notBuild, '--version', '0.1.0', '--no-packages']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`install-in-distro.sh: ${notBuild} is not a Linux build of OpenAI4S (no executable openai4s-desktop in it)\n`);
    expect(fs.readdirSync(lib())).toEqual([]);
    expect(aptLog()).toEqual([]);
  });

  it('splits the root part from the user part: --packages-only runs apt alone, --no-packages never does', () => {
    const packagesOnly = run(['--packages-only']);
    expect(packagesOnly.status).toBe(0);
    expect(aptLog()).toHaveLength(2);
    expect(fs.existsSync(lib())).toBe(false);
    const noPackages = run(['--source', linuxBuild('0.1.0'), '--version', '0.1.0', '--no-packages']);
    expect(noPackages.status).toBe(0);
    expect(noPackages.stdout).toContain('[2/5] System packages: left to --packages-only');
    expect(aptLog()).toHaveLength(2);
  });

  it('uninstalls the app and its launchers, keeping the sessions and saying so', () => {
    markInstalled([...APP_PACKAGES, ...DEB_RECOMMENDS]);
    run(['--source', linuxBuild('0.1.0'), '--version', '0.1.0']);
    const result = run(['--uninstall']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('removed OpenAI4S 0.1.0');
    expect(result.stdout).toContain(`kept: your sessions in ${home}/.openai4s`);
    expect(fs.existsSync(lib())).toBe(false);
    expect(fs.existsSync(path.join(prefix, 'bin', 'openai4s-desktop'))).toBe(false);
    expect(fs.existsSync(path.join(home, '.local', 'share', 'applications', 'openai4s.desktop'))).toBe(false);
  });

  it('diagnoses the distribution, WSL2, the display, the installed version and the missing packages', () => {
    markInstalled(APP_PACKAGES);
    run(['--source', linuxBuild('0.1.0'), '--version', '0.1.0', '--no-packages']);
    const result = run(['--diagnose']);
    expect(result.status).toBe(0);
    expect(result.lines.slice(0, 5)).toEqual([
      'distribution: Debian GNU/Linux 13 (trixie)',
      'wsl: WSL2 (6.6.87.2-microsoft-standard-WSL2)',
      'display: DISPLAY=:0 WAYLAND_DISPLAY=unset (WSLg)',
      `installed: 0.1.0 in ${lib()}/0.1.0`,
      `missing packages: ${DEB_RECOMMENDS.join(' ')}`,
    ]);
    expect(result.lines.slice(5).map((l) => l.split(':')[0])).toEqual(['sandbox', 'python3', 'R']);
  });

  it('rejects unknown options and a version that could escape its folder, in one line, exit 2', () => {
    expect(run(['--frobnicate']).stderr).toMatch(/^install-in-distro\.sh: unknown option --frobnicate \(usage: /);
    const bad = run(['--source', linuxBuild('0.1.0'), '--version', '../x', '--no-packages']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe("install-in-distro.sh: --version must be a version number such as 0.1.0, not '../x'\n");
  });

  it('passes shellcheck as POSIX sh (apt-get install shellcheck)', () => {
    const check = spawnSync('shellcheck', ['-s', 'sh', script], { encoding: 'utf8' });
    expect(check.error, 'shellcheck is not installed: apt-get install shellcheck').toBeUndefined();
    expect(check.stdout).toBe('');
    expect(check.status).toBe(0);
  });
});

describe('the Windows download (scripts/pack-wsl-launcher.mjs)', () => {
  it('zips the launcher with the Linux build and its sha256, and the unpacked zip installs in the distribution', async () => {
    const { packWslLauncher } = await import('../../scripts/pack-wsl-launcher.mjs');
    const { zip, release } = packWslLauncher({ appDir: linuxBuild('0.3.0'), outDir: path.join(tmp, 'out'), version: '0.3.0' });
    expect(path.basename(zip)).toBe('OpenAI4S-0.3.0-windows-wsl2.zip');
    const { unzipSync } = await import('fflate');
    const entries = unzipSync(fs.readFileSync(zip));
    expect(Object.keys(entries).sort()).toEqual(
      ['OpenAI4S.cmd', 'OpenAI4S.ps1', 'README.txt', 'install-in-distro.sh', 'openai4s.png', 'release.json', 'OpenAI4S-0.3.0-linux-x64.tar.gz'].map((f) => `OpenAI4S/${f}`).sort(),
    );
    // cmd.exe reads batch files by CRLF lines; the shell script must stay LF.
    expect(Buffer.from(entries['OpenAI4S/OpenAI4S.cmd']!).toString()).toMatch(/^@echo off\r\n/);
    expect(Buffer.from(entries['OpenAI4S/install-in-distro.sh']!).includes('\r')).toBe(false);
    expect(JSON.parse(Buffer.from(entries['OpenAI4S/release.json']!).toString())).toEqual(release);
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(entries[`OpenAI4S/${release.bundle}`]!).digest('hex')).toBe(release.sha256);

    // What the launcher does: unpack, then run the script in that folder with the bundle named relatively.
    const unpacked = path.join(tmp, 'unzipped');
    for (const [name, bytes] of Object.entries(entries)) {
      fs.mkdirSync(path.dirname(path.join(unpacked, name)), { recursive: true });
      fs.writeFileSync(path.join(unpacked, name), bytes);
    }
    const folder = path.join(unpacked, 'OpenAI4S');
    const result = spawnSync('/bin/sh', ['./install-in-distro.sh', '--source', `./${release.bundle}`, '--version', release.version, '--no-packages'], {
      cwd: folder,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: home, OPENAI4S_PREFIX: prefix, OPENAI4S_DPKG_QUERY: path.join(tmp, 'stubs', 'dpkg-query'), OPENAI4S_SYSROOT: path.join(tmp, 'sysroot') },
    });
    expect(result.stderr).toBe('');
    expect(spawnSync(path.join(prefix, 'bin', 'openai4s-desktop'), ['x'], { encoding: 'utf8' }).stdout).toBe('openai4s-desktop 0.3.0 x\n');
    expect(fs.readFileSync(path.join(home, '.local', 'share', 'applications', 'openai4s.desktop'), 'utf8')).toContain(`Icon=${home}/.local/share/icons/hicolor/512x512/apps/openai4s.png`);
  });
});
