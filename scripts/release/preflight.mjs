// Before `npm run dist` builds anything: is the Electron runtime for each target in the
// download cache, or can it be downloaded? electron-builder downloads it itself and, when
// it cannot, dies with a stack trace several screens long; this says what is needed in one
// line instead. Reads the same variables as @electron/get (ELECTRON_MIRROR, ...).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ELECTRON_BASE = 'https://github.com/electron/electron/releases/download/';
const BUILDER_BINARIES_BASE = 'https://github.com/electron-userland/electron-builder-binaries/releases/download/';
export const EXAMPLE_ELECTRON_MIRROR = 'https://npmmirror.com/mirrors/electron/';
export const EXAMPLE_BUILDER_MIRROR = 'https://npmmirror.com/mirrors/electron-builder-binaries/';

/** @electron/get's lookup of a mirror option: .npmrc, package.json config, then ELECTRON_*. */
function mirrorVar(env, name, fallback) {
  const snake = name.replace(/([a-z])([A-Z])/g, (_, a, b) => `${a}_${b}`).toLowerCase();
  return (
    env[`npm_config_electron_${name.toLowerCase()}`] ||
    env[`NPM_CONFIG_ELECTRON_${snake.toUpperCase()}`] ||
    env[`npm_config_electron_${snake}`] ||
    env[`npm_package_config_electron_${name}`] ||
    env[`ELECTRON_${snake.toUpperCase()}`] ||
    fallback
  );
}

/** Where @electron/get keeps downloads (env-paths('electron').cache). */
export function electronCacheRoot(env = process.env, platform = process.platform, home = os.homedir()) {
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'electron');
  if (platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'electron', 'Cache');
  return path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'electron');
}

export function electronZipName(version, platform, arch) {
  return `electron-v${version}-${platform}-${arch}.zip`;
}

export function electronZipUrl(env, version, platform, arch) {
  const base = mirrorVar(env, 'mirror', ELECTRON_BASE);
  const dir = mirrorVar(env, 'customDir', `v${version}`).replace('{{ version }}', version);
  const file = mirrorVar(env, 'customFilename', electronZipName(version, platform, arch));
  return `${base.endsWith('/') ? base : `${base}/`}${dir}/${file}`;
}

/** The cached zip, if any: @electron/get stores it as <root>/<hash of the URL's folder>/<name>. */
export function findCachedZip(root, name) {
  if (!fs.existsSync(root)) return null;
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    const candidate = entry.isDirectory() ? path.join(root, entry.name, name) : entry.name === name ? path.join(root, name) : null;
    if (candidate && fs.existsSync(candidate) && fs.statSync(candidate).size > 0) return candidate;
  }
  return null;
}

/**
 * Whether `url` answers at all: any HTTP status below 400 (a release download redirects).
 * Returns null when reachable, else the reason in a few words.
 */
export async function probeUrl(url, timeoutMs = 10_000) {
  try {
    const response = await fetch(url, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    return response.status < 400 ? null : `it answers HTTP ${response.status}`;
  } catch (error) {
    const cause = error?.cause;
    const code = cause?.code ?? cause?.errno ?? (error?.name === 'TimeoutError' ? `no answer in ${timeoutMs / 1000} s` : null);
    return `it cannot be reached (${code ?? error?.message ?? 'network error'})`;
  }
}

const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ELECTRON_GET_USE_PROXY', 'GLOBAL_AGENT_HTTPS_PROXY'];

/**
 * Checks every Electron zip the build needs (and electron-builder's packaging tools when
 * installers are built). Returns null when the build can go on, else one line saying what
 * is needed. Behind a proxy the probe (plain fetch, no proxy) cannot judge, so it trusts it.
 * @param {{ version: string, targets: { platform: string, arch: string }[], installers: boolean, env?: NodeJS.ProcessEnv,
 *   probe?: (url: string) => Promise<string | null>, cacheRoot?: string, builderCache?: string | null }} options
 * @returns {Promise<string | null>}
 */
export async function preflight({ version, targets, installers, env = process.env, probe = probeUrl, cacheRoot = electronCacheRoot(env), builderCache = null }) {
  const proxied = PROXY_VARS.some((name) => env[name]);
  for (const { platform, arch } of targets) {
    const name = electronZipName(version, platform, arch);
    if (findCachedZip(cacheRoot, name)) continue;
    if (proxied) continue;
    const url = electronZipUrl(env, version, platform, arch);
    const problem = await probe(url);
    if (problem) {
      return (
        `npm run dist needs the Electron ${version} runtime for ${platform}-${arch} (${name}): it is not in the download cache (${cacheRoot}) and ${url} ${problem}; ` +
        `set ELECTRON_MIRROR to a mirror you can reach (e.g. ELECTRON_MIRROR=${EXAMPLE_ELECTRON_MIRROR}) or copy ${name} into ${cacheRoot}, then run npm run dist again`
      );
    }
  }
  const builderBase = env.ELECTRON_BUILDER_BINARIES_MIRROR || BUILDER_BINARIES_BASE;
  const toolsCached = builderCache && fs.existsSync(builderCache) && fs.readdirSync(builderCache).length > 0;
  if (installers && !toolsCached && !proxied) {
    const problem = await probe(builderBase);
    // A mirror's root may answer 404 while its files exist; only an unreachable host counts.
    if (problem && !problem.startsWith('it answers')) {
      return (
        `npm run dist needs electron-builder's packaging tools (AppImage and deb tooling, dmg tooling) from ${builderBase}, and ${problem}; ` +
        `set ELECTRON_BUILDER_BINARIES_MIRROR to a mirror you can reach (e.g. ${EXAMPLE_BUILDER_MIRROR}), or build only the unpacked app with npm run dist -- --dir`
      );
    }
  }
  return null;
}
