import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { electronZipName, electronZipUrl, preflight } from '../../scripts/release/preflight.mjs';
import { macSigning } from '../../scripts/release/macSigning.mjs';
import { targetsFrom } from '../../scripts/dist.mjs';

const root = path.resolve(__dirname, '../..');
const version = (JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }).version;

let tmp: string;
let closedPort: number;
let server: http.Server;
let serverUrl: string;
const heads: string[] = [];

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'openai4s-dist-'));
  // A port nothing listens on: bind one, then close it.
  closedPort = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  // A mirror that redirects every Electron zip (as GitHub's release downloads do) and has nothing else.
  server = http.createServer((req, res) => {
    heads.push(`${req.method} ${req.url}`);
    res.writeHead(req.url?.endsWith('.zip') ? 302 : 404, { location: 'http://127.0.0.1/elsewhere' }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** An environment with no proxy and an empty cache under tmp. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: path.join(tmp, 'home'), XDG_CACHE_HOME: path.join(tmp, 'cache'), ...extra };
  return env;
}

describe('npm run dist without network', () => {
  it('says in one line that it needs the Electron runtime and names ELECTRON_MIRROR, exit 1, no stack trace', () => {
    const run = spawnSync(process.execPath, [path.join(root, 'scripts', 'dist.mjs'), '--linux'], {
      cwd: root,
      encoding: 'utf8',
      env: cleanEnv({ ELECTRON_MIRROR: `http://127.0.0.1:${closedPort}/` }),
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`npm run dist needs the Electron ${version} runtime for linux-x64 (electron-v${version}-linux-x64.zip)`);
    expect(lines[0]).toContain(`http://127.0.0.1:${closedPort}/v${version}/electron-v${version}-linux-x64.zip it cannot be reached (ECONNREFUSED)`);
    expect(lines[0]).toContain('set ELECTRON_MIRROR to a mirror you can reach');
    expect(run.stderr).not.toMatch(/^\s+at /m);
    // Nothing was built: the preflight runs before electron-vite.
    expect(run.stdout).toBe('');
  });

  it('refuses a Windows build in one line pointing at the WSL2 launcher', () => {
    const run = spawnSync(process.execPath, [path.join(root, 'scripts', 'dist.mjs'), '--win'], { cwd: root, encoding: 'utf8', env: cleanEnv() });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining('there is no Windows build')]);
    expect(run.stderr).toContain('WSL2');
  });
});

describe('preflight', () => {
  const linux = [{ platform: 'linux', arch: 'x64' }];

  it('goes on without touching the network when the zip is in the download cache', async () => {
    const cache = path.join(tmp, 'cached');
    fs.mkdirSync(path.join(cache, 'abc123'), { recursive: true });
    fs.writeFileSync(path.join(cache, 'abc123', electronZipName(version, 'linux', 'x64')), 'zip');
    const probe = () => {
      throw new Error('probed the network');
    };
    await expect(preflight({ version, targets: linux, installers: false, env: cleanEnv(), cacheRoot: cache, probe })).resolves.toBeNull();
  });

  it('goes on when the mirror answers for the zip, asking at the URL @electron/get would use', async () => {
    heads.length = 0;
    const env = cleanEnv({ ELECTRON_MIRROR: serverUrl, ELECTRON_CUSTOM_DIR: '{{ version }}' });
    await expect(preflight({ version, targets: linux, installers: false, env, cacheRoot: path.join(tmp, 'empty') })).resolves.toBeNull();
    expect(heads).toEqual([`HEAD /${version}/electron-v${version}-linux-x64.zip`]);
    expect(electronZipUrl(env, version, 'darwin', 'arm64')).toBe(`${serverUrl}${version}/electron-v${version}-darwin-arm64.zip`);
  });

  it('names a mirror that does not have the file', async () => {
    const line = await preflight({ version, targets: linux, installers: false, env: cleanEnv({ ELECTRON_MIRROR: `${serverUrl}missing`, ELECTRON_CUSTOM_FILENAME: 'nothing.txt' }), cacheRoot: path.join(tmp, 'empty') });
    expect(line).toContain('it answers HTTP 404');
  });

  it("checks electron-builder's packaging tools only for installers, naming ELECTRON_BUILDER_BINARIES_MIRROR", async () => {
    const env = cleanEnv({ ELECTRON_MIRROR: serverUrl, ELECTRON_BUILDER_BINARIES_MIRROR: `http://127.0.0.1:${closedPort}/` });
    const options = { version, targets: linux, env, cacheRoot: path.join(tmp, 'empty'), builderCache: path.join(tmp, 'no-builder-cache') };
    const line = await preflight({ ...options, installers: true });
    expect(line).toContain('set ELECTRON_BUILDER_BINARIES_MIRROR to a mirror you can reach');
    expect(line).toContain('npm run dist -- --dir');
    await expect(preflight({ ...options, installers: false })).resolves.toBeNull();
  });

  it('does not judge from behind a proxy (its probe cannot use one)', async () => {
    const env = cleanEnv({ ELECTRON_MIRROR: `http://127.0.0.1:${closedPort}/`, HTTPS_PROXY: 'http://proxy.example:3128' });
    await expect(preflight({ version, targets: linux, installers: false, env, cacheRoot: path.join(tmp, 'empty') })).resolves.toBeNull();
  });
});

describe('dist targets and macOS signing', () => {
  it('builds the yml CPUs for this platform by default and both dmgs on macOS', () => {
    expect(targetsFrom({}, 'linux')).toEqual({ targets: [{ platform: 'linux', arch: 'x64' }] });
    expect(targetsFrom({ mac: true })).toEqual({ targets: [{ platform: 'darwin', arch: 'arm64' }, { platform: 'darwin', arch: 'x64' }] });
    expect(targetsFrom({ mac: true, arm64: true })).toEqual({ targets: [{ platform: 'darwin', arch: 'arm64' }] });
    expect(targetsFrom({}, 'win32').error).toContain('no build for win32');
  });

  it('signs ad-hoc without the hardened runtime when no identity is given', () => {
    expect(macSigning({})).toMatchObject({ mode: 'ad-hoc', notarize: false, override: { mac: { identity: '-', hardenedRuntime: false, notarize: false } } });
  });

  it('signs with the Developer ID and notarizes only when a notarytool credential set is complete', () => {
    expect(macSigning({ CSC_LINK: 'cert.p12', CSC_KEY_PASSWORD: 'x' })).toMatchObject({ mode: 'developer-id', notarize: false, override: { mac: { notarize: false } } });
    expect(macSigning({ CSC_LINK: 'cert.p12', APPLE_API_KEY: 'k.p8', APPLE_API_KEY_ID: 'ID' })).toMatchObject({ notarize: false });
    const full = macSigning({ CSC_NAME: 'Developer ID Application: Lab (TEAM1)', APPLE_API_KEY: 'k.p8', APPLE_API_KEY_ID: 'ID', APPLE_API_ISSUER: 'iss' });
    expect(full).toMatchObject({ mode: 'developer-id', notarize: true, override: {} });
    expect(full.summary).toContain('notarized');
  });
});

describe('keepNodeBuild (dist leaves the Node build of better-sqlite3 as it was)', () => {
  function addon(name: string) {
    const dir = path.join(tmp, name);
    fs.mkdirSync(path.join(dir, 'build', 'Release'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'build', 'Release', 'better_sqlite3.node'), 'node abi 115');
    return dir;
  }
  // What electron-builder's rebuild does: node-gyp cleans the build folder, then builds anew.
  const rebuildForElectron = (dir: string) => {
    fs.rmSync(path.join(dir, 'build'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'build', 'Release'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'build', 'Release', 'better_sqlite3.node'), 'electron abi 150');
    fs.writeFileSync(path.join(dir, 'build', 'Release', 'extra.o'), 'obj');
  };

  it('puts the build back after the rebuild for Electron, and passes the result through', async () => {
    const { keepNodeBuild } = await import('../../scripts/release/keepNodeBuild.mjs');
    const dir = addon('kept');
    await expect(keepNodeBuild(dir, async () => (rebuildForElectron(dir), 'built'))).resolves.toBe('built');
    expect(fs.readdirSync(path.join(dir, 'build', 'Release'))).toEqual(['better_sqlite3.node']);
    expect(fs.readFileSync(path.join(dir, 'build', 'Release', 'better_sqlite3.node'), 'utf8')).toBe('node abi 115');
  });

  it('puts it back when the rebuild fails half-way (node-gyp cleaned first), and the failure still surfaces', async () => {
    const { keepNodeBuild } = await import('../../scripts/release/keepNodeBuild.mjs');
    const dir = addon('failed');
    const other = path.join(tmp, 'other-checkout.node');
    fs.linkSync(path.join(dir, 'build', 'Release', 'better_sqlite3.node'), other); // a worktree sharing the file
    const failing = keepNodeBuild(dir, async () => {
      fs.rmSync(path.join(dir, 'build'), { recursive: true });
      throw new Error("node-gyp failed to rebuild 'better-sqlite3'");
    });
    await expect(failing).rejects.toThrow('node-gyp failed');
    expect(fs.readFileSync(path.join(dir, 'build', 'Release', 'better_sqlite3.node'), 'utf8')).toBe('node abi 115');
    expect(fs.readFileSync(other, 'utf8')).toBe('node abi 115');
  });
});
