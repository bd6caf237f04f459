import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appRoot } from '../../src-main/core/config/appPaths';
import { WORKER_FDS } from '../../src-main/core/kernel/bwrapLaunch';
import { makeSupervisor } from '../core/kernel/helpers';

// Issue 13, item 3: nothing a cell can read in /proc names the app's install path or the
// data root through a command line: bwrap gets its arguments on a pipe (`--args`), the
// worker script is copied in, and the worker's argv names only sandbox paths. What
// remains visible (the workspace's and the cache's path inside their file system in
// /proc/self/mountinfo) is written down in kernel-workers/README.md.
const { sup, dataDir } = makeSupervisor();
afterAll(() => sup.close());

const READ_PROC = `
import os, json
out = {}
for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
    for name in ("cmdline", "environ"):
        try:
            out[pid + "/" + name] = open("/proc/%s/%s" % (pid, name), "rb").read().decode("utf-8", "replace").replace("\\0", " ")
        except OSError as e:
            out[pid + "/" + name] = type(e).__name__
    try:
        out[pid + "/cwd"] = os.readlink("/proc/%s/cwd" % pid)
    except OSError as e:
        out[pid + "/cwd"] = type(e).__name__
out["mountinfo"] = open("/proc/self/mountinfo").read()
out["pid1_mountinfo"] = open("/proc/1/mountinfo").read()
print(json.dumps(out))
`;

describe('host paths inside the sandbox', () => {
  it('/proc/1/cmdline is only "bwrap --args N" plus the sandboxed command; no process line names the data root or the app', async () => {
    const r = await sup.execute('hp', 'python', READ_PROC);
    expect(r.status, r.error?.traceback).toBe('ok');
    const seen = JSON.parse(r.stdout) as Record<string, string>;
    const pid1 = seen['1/cmdline']!.trim().split(' ');
    expect(pid1.slice(1, 4)).toEqual(['--args', String(WORKER_FDS), '--']);
    // What follows names only sandbox paths: prlimit, the interpreter, the copied script (or,
    // once the kernel cache is built, the worker's bytecode in it: workerBytecode.ts).
    const [prlimit, python, script, ...rest] = pid1.slice(4).filter((a) => a.startsWith('/'));
    expect([prlimit, python, rest]).toEqual(['/usr/bin/prlimit', '/usr/bin/python3', []]);
    expect(['/opt/openai4s/workers/python/worker.py', '/cache/worker.pyc']).toContain(script);
    const app = appRoot();
    for (const [key, value] of Object.entries(seen)) {
      if (key.endsWith('mountinfo')) continue;
      expect(value, key).not.toContain(dataDir);
      expect(value, key).not.toContain(app);
      expect(value, key).not.toContain(path.join(app, 'kernel-workers'));
    }
  });

  it('no mount names the app install folder (the worker script is copied in, not bound)', async () => {
    const r = await sup.execute('hp', 'python', READ_PROC);
    const seen = JSON.parse(r.stdout) as Record<string, string>;
    expect(seen.mountinfo).toContain(' /workspace ');
    expect(seen.mountinfo).not.toContain('kernel-workers');
    expect(seen.mountinfo).not.toContain(appRoot());
    expect(seen.pid1_mountinfo).not.toContain(appRoot());
  });

  it('a subprocess of the cell sees the same', async () => {
    const r = await sup.execute('hp', 'python', 'import subprocess\nprint(subprocess.run(["sh", "-c", "cat /proc/1/cmdline | tr \\"\\\\0\\" \\" \\"; echo; grep -c kernel-workers /proc/self/mountinfo || true"], capture_output=True, text=True).stdout)');
    expect(r.status, r.error?.traceback).toBe('ok');
    expect(r.stdout).not.toContain(dataDir);
    expect(r.stdout).not.toContain(appRoot());
    expect(r.stdout.trim().split('\n').at(-1)).toBe('0');
  });
});
