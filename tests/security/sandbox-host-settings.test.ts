import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { etcPrivate, etcPrivateArgs } from '../../src-main/core/kernel/etcPrivate';
import { makeSupervisor } from '../core/kernel/helpers';

// A kernel of an app run as root (a container, a server, WSL's default user) was root on the
// host's files and settings: it could write /proc/sys (core_pattern runs a program as the
// host's root at the next crash) and read SSH host keys and /etc/shadow. The kernel now
// drops every capability, sees /proc/sys read-only, and finds what of /etc is not readable
// by everyone hidden, whoever runs the app.
const { sup } = makeSupervisor();
afterAll(() => sup.close());

const PROBE = `
import json, os
out = {"capEff": open("/proc/self/status").read().split("CapEff:")[1].split()[0], "sys": {}, "etc": {}}
for p in ["/proc/sys/kernel/core_pattern", "/proc/sys/vm/stat_interval"]:
    try:
        open(p, "w")
        out["sys"][p] = "writable"
    except OSError as e:
        out["sys"][p] = e.strerror
files, dirs = json.loads(os.environ.get("PRIVATE", "[[], []]"))
for p in files + dirs:
    try:
        data = open(p, "rb").read() if p in files else os.listdir(p)
        out["etc"][p] = "read: %d" % len(data)
    except OSError as e:
        out["etc"][p] = e.strerror
print(json.dumps(out))
`;

describe('the kernel and the host’s settings and secrets', () => {
  it('has no capability, cannot change a system setting, and reads nothing of /etc that others may not', async () => {
    const hidden = etcPrivate();
    const names = [hidden.files.slice(0, 40), hidden.dirs.slice(0, 40)];
    const code = `import os; os.environ["PRIVATE"] = ${JSON.stringify(JSON.stringify(names))}\n${PROBE}`;
    const r = await sup.execute('host-settings', 'python', code);
    expect(r.status, r.error?.traceback).toBe('ok');
    const seen = JSON.parse(r.stdout) as { capEff: string; sys: Record<string, string>; etc: Record<string, string> };
    expect(seen.capEff).toBe('0000000000000000');
    for (const [p, result] of Object.entries(seen.sys)) expect(result, p).toBe('Read-only file system');
    for (const p of hidden.files.slice(0, 40)) expect(seen.etc[p], p).toMatch(/Permission denied|No such file/);
    // A hidden folder is empty (or unreadable).
    for (const p of hidden.dirs.slice(0, 40)) expect(seen.etc[p], p).toMatch(/^read: 0$|Permission denied/);
  });

  it('finds the entries of a folder that others may not read, and hides folders whole', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-etc-'));
    try {
      fs.writeFileSync(path.join(root, 'public.conf'), 'x');
      fs.writeFileSync(path.join(root, 'secret.key'), 'x', { mode: 0o600 });
      fs.mkdirSync(path.join(root, 'private'), { mode: 0o700 });
      fs.writeFileSync(path.join(root, 'private', 'inner.key'), 'x', { mode: 0o600 });
      fs.mkdirSync(path.join(root, 'open', 'deeper'), { recursive: true });
      fs.writeFileSync(path.join(root, 'open', 'deeper', 'db.conf'), 'x', { mode: 0o640 });
      fs.symlinkSync(path.join(root, 'secret.key'), path.join(root, 'link.key'));
      const found = etcPrivate(root);
      expect(found.files.sort()).toEqual([path.join(root, 'open', 'deeper', 'db.conf'), path.join(root, 'secret.key')]);
      expect(found.dirs).toEqual([path.join(root, 'private')]);
      expect(etcPrivateArgs(found)).toEqual([
        '--tmpfs', path.join(root, 'private'), '--remount-ro', path.join(root, 'private'),
        ...found.files.flatMap((f) => ['--ro-bind', '/dev/null', f]),
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
