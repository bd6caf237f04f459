import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KernelSupervisor, type KernelSupervisorOptions } from '../../../src-main/core/kernel/supervisor';
import { makeSupervisor } from './helpers';

/** Every file under `dir` with a hash of its bytes: what "unchanged" means for the cache. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isFile()) out[path.relative(dir, full)] = createHash('sha256').update(fs.readFileSync(full)).digest('hex');
  }
  return out;
}

// A legacy shared writable cache, with a file a session's code could have planted.
const { sup, dataDir } = makeSupervisor({ prewarm: ['python'] });
fs.mkdirSync(path.join(dataDir, 'kernel-cache', 'matplotlib'), { recursive: true });
fs.writeFileSync(path.join(dataDir, 'kernel-cache', 'matplotlib', 'planted.py'), 'print("planted")');
afterAll(() => sup.close());

describe('kernel cache (built by a trusted step, read-only in sandboxes)', () => {
  let cacheDir = '';
  let before: Record<string, string> = {};

  it('is built once with the imports only, and the old shared writable cache is gone', async () => {
    cacheDir = (await sup.prepareKernelCache())!;
    expect(cacheDir).toMatch(/kernel-cache-ro\/python-[0-9a-f]{16}$/);
    const stamp = JSON.parse(fs.readFileSync(path.join(cacheDir, 'stamp.json'), 'utf8')) as { layout: string; matplotlib: { version: string } };
    expect(stamp.layout).toBe('bwrap');
    expect(stamp.matplotlib.version).toMatch(/^\d+\./);
    expect(fs.readdirSync(path.join(cacheDir, 'matplotlib')).some((n) => /^fontlist-v\d+\.json$/.test(n))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'kernel-cache'))).toBe(false);
    before = snapshot(cacheDir);
  }, 120_000);

  it('a cell reads it (no font-cache rebuild) and cannot write into it; its own copy stays in its generation', async () => {
    const font = fs.readdirSync(path.join(cacheDir, 'matplotlib')).find((n) => n.startsWith('fontlist-'))!;
    const a = await sup.execute(
      'cache-a',
      'python',
      `import os, sys, time, logging\nlog = logging.getLogger("matplotlib.font_manager")\nlog.setLevel(logging.DEBUG)\nlog.addHandler(logging.StreamHandler(sys.stderr))\n` +
        `import matplotlib\nt = time.perf_counter()\nimport matplotlib.pyplot as plt, matplotlib.font_manager as fm\nfm.findfont("DejaVu Sans")\n` +
        `print(matplotlib.get_cachedir(), os.environ["XDG_CACHE_HOME"], int((time.perf_counter() - t) * 1000))\nres = []\n` +
        `for p in ["/cache/matplotlib/${font}", "/cache/planted.py", "/tmp/cache/fontconfig/planted", "/tmp/cache/fontconfig/CACHEDIR.TAG"]:\n` +
        `    try:\n        open(p, "a").write("planted"); res.append("WROTE")\n    except OSError as e:\n        res.append(type(e).__name__)\n` +
        `for op in [lambda: os.remove("/cache/stamp.json"), lambda: os.rename("/tmp/cache/fontconfig", "/tmp/cache/x")]:\n` +
        `    try:\n        op(); res.append("CHANGED")\n    except OSError as e:\n        res.append(type(e).__name__)\n` +
        `open("/tmp/mpl/${font}", "a").write("planted in my own copy")\nprint(res)`,
    );
    expect(a.status).toBe('ok');
    const [dirs, res] = a.stdout.trim().split('\n');
    expect(dirs).toMatch(/^\/tmp\/mpl \/tmp\/cache \d+$/);
    expect(res).not.toMatch(/WROTE|CHANGED/);
    // matplotlib says where its font list came from: the copy of the cache, not a rebuild.
    expect(a.stderr).toContain(`Using fontManager instance from /tmp/mpl/${font}`);
    expect(a.stderr).not.toMatch(/generated new fontManager|Could not save/);
    // The next session's kernel gets the cache's font list, not what session A wrote.
    const b = await sup.execute('cache-b', 'python', `import hashlib\nprint(hashlib.sha256(open("/tmp/mpl/${font}", "rb").read()).hexdigest())`);
    expect(b.stdout.trim()).toBe(before[path.join('matplotlib', font)]);
    expect(snapshot(cacheDir)).toEqual(before);
  }, 60_000);

  it('is reused by the next app start while fresh, and rebuilt when stale', async () => {
    const stampPath = path.join(cacheDir, 'stamp.json');
    const readStamp = () => JSON.parse(fs.readFileSync(stampPath, 'utf8')) as { builtAt: string; interpreterMtimeMs: number };
    const builtAt = readStamp().builtAt;
    // Same data dir, a new supervisor: the next app start.
    const again = new KernelSupervisor(optionsOf(dataDir));
    try {
      expect(await again.prepareKernelCache()).toBe(cacheDir);
      expect(readStamp().builtAt).toBe(builtAt);
    } finally {
      await again.close();
    }
    fs.writeFileSync(stampPath, JSON.stringify({ ...readStamp(), interpreterMtimeMs: 1 })); // as if python3 was upgraded
    const third = new KernelSupervisor(optionsOf(dataDir));
    try {
      expect(await third.prepareKernelCache()).toBe(cacheDir);
      expect(readStamp().interpreterMtimeMs).not.toBe(1);
      expect(readStamp().builtAt).not.toBe(builtAt);
    } finally {
      await third.close();
    }
  }, 120_000);
});

function optionsOf(dir: string): KernelSupervisorOptions {
  return { dataDir: dir, processEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, sandboxMode: () => 'enforce', idleShutdownMs: 0 };
}
