import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostProcessesMatching, makeSupervisor, waitFor } from './helpers';

// DESIGN.md, Kernels, item 8 of the kernel issue: every escape attempt runs in the real
// worker under the real bwrap, and the host checks the outcome from outside.
const { sup, dataDir } = makeSupervisor({
  processEnv: { OPENAI4S_ARK_API_KEY: 'sk-parent-secret', GITHUB_TOKEN: 'ghp-parent', NODE_OPTIONS: '--inspect' },
});
const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-outside-'));
const victim = path.join(outside, 'victim.txt');
let server: net.Server;
let port = 0;
let accepted = 0;

beforeAll(async () => {
  fs.writeFileSync(victim, 'original');
  server = net.createServer((s) => {
    accepted++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await sup.close();
  server.close();
});

const py = (code: string) => sup.execute('adv', 'python', code);

describe('sandbox escapes fail under the real bwrap', () => {
  it('cannot write outside the workspace: /usr, the real $HOME, an outside folder', async () => {
    const home = os.homedir();
    const r = await py(
      `import os\nres = {}\nfor p in ["/usr/oai4s-probe", ${JSON.stringify(path.join(home, 'oai4s-probe'))}, ${JSON.stringify(victim)}]:\n` +
        `    try:\n        open(p, "w").write("x"); res[p] = "WROTE"\n    except OSError as e:\n        res[p] = type(e).__name__\nprint(res)\nopen("inside.txt", "w").write("ok")\nopen("/tmp/oai4s-private-probe", "w").write("private")`,
    );
    expect(r.status).toBe('ok');
    expect(r.stdout).not.toContain('WROTE');
    expect(fs.existsSync('/usr/oai4s-probe')).toBe(false);
    expect(fs.existsSync(path.join(home, 'oai4s-probe'))).toBe(false);
    expect(fs.readFileSync(victim, 'utf8')).toBe('original');
    expect(fs.existsSync('/tmp/oai4s-private-probe')).toBe(false); // /tmp inside is private
    expect(fs.readFileSync(path.join(dataDir, 'workspaces', 'adv', 'inside.txt'), 'utf8')).toBe('ok');
  });

  it('a symlink pointing out of the workspace and a hard link to an outside file do not reach the host', async () => {
    const r = await py(
      `import os\nos.symlink(${JSON.stringify(victim)}, "sym")\nos.symlink("/usr/lib", "symdir")\nres = []\n` +
        `for target in ["sym", "symdir/oai4s-probe"]:\n    try:\n        open(target, "w").write("pwned"); res.append("WROTE")\n    except OSError as e:\n        res.append(type(e).__name__)\n` +
        `try:\n    os.link("/etc/hostname", "hard")\n    res.append("LINKED")\nexcept OSError as e:\n    res.append(type(e).__name__)\nprint(res)`,
    );
    expect(r.status).toBe('ok');
    expect(r.stdout).not.toMatch(/WROTE|LINKED/);
    expect(fs.readFileSync(victim, 'utf8')).toBe('original');
    expect(fs.existsSync('/usr/lib/oai4s-probe')).toBe(false);
  });

  it('cannot open TCP connections: 1.1.1.1 and the host loopback both fail', async () => {
    const r = await py(
      `import socket\nres = []\nfor addr in [("1.1.1.1", 443), ("127.0.0.1", ${port})]:\n    try:\n        socket.create_connection(addr, timeout=2).close(); res.append("CONNECTED")\n    except OSError as e:\n        res.append(type(e).__name__)\nprint(res)`,
    );
    expect(r.stdout).not.toContain('CONNECTED');
    expect(accepted).toBe(0);
  });

  it('holds no secret of the parent environment', async () => {
    const r = await py('import os, json\nprint(json.dumps(dict(os.environ)))');
    const env = JSON.parse(r.stdout) as Record<string, string>;
    expect(JSON.stringify(env)).not.toMatch(/sk-parent-secret|ghp-parent|--inspect/);
    expect(Object.keys(env).filter((k) => /KEY|TOKEN|SECRET|PASSWORD|^ELECTRON_|^NODE_OPTIONS$/i.test(k))).toEqual([]);
  });

  it('sees no host process: /proc/1 is not the app and host pids are absent', async () => {
    const r = await py(`import os\nprint(open("/proc/1/cmdline").read().replace("\\0", " "))\nprint(os.path.exists("/proc/${process.pid}"))\nprint(len([p for p in os.listdir("/proc") if p.isdigit()]))`);
    const [cmd, hostPidVisible, count] = r.stdout.trim().split('\n');
    expect(cmd).not.toMatch(/node|vitest|electron/);
    expect(hostPidVisible).toBe('False');
    expect(Number(count)).toBeLessThan(10);
  });

  it('a background child and a double-forked daemon die with the kernel', async () => {
    const tag = `${Date.now() % 100000}`;
    const r = await py(
      `import os, subprocess\nsubprocess.Popen(["sleep", "999.${tag}1"])\n` +
        `if os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        os.execvp("sleep", ["sleep", "998.${tag}2"])\n    os._exit(0)\nprint("spawned")`,
    );
    expect(r.stdout).toBe('spawned\n');
    expect(await waitFor(() => hostProcessesMatching(`999.${tag}1`).length > 0 && hostProcessesMatching(`998.${tag}2`).length > 0)).toBe(true);
    await sup.restart('adv', 'python');
    expect(await waitFor(() => hostProcessesMatching(`.${tag}`).filter((p) => p !== process.pid).length === 0)).toBe(true);
  });
});
