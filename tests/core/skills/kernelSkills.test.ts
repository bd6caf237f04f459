import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { skillTools } from '../../../src-main/core/capabilities/tools/skillTools';
import type { HostCallHandler } from '../../../src-main/core/kernel/hostCalls';
import { bwrapArgs } from '../../../src-main/core/kernel/sandbox';
import { SkillLibrary } from '../../../src-main/core/skills/library';
import { makeSupervisor } from '../kernel/helpers';

/** A user skills folder written for the test: a good Python sidecar, a broken one, an R one. */
function skillsFolder(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-kskills-'));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  write('gc-content/SKILL.md', '---\nname: gc-content\ndescription: GC content of a DNA sequence.\n---\nUse the sidecar.\n');
  write('gc-content/kernel.py', 'import os\n\ndef gc(seq):\n    seq = seq.upper()\n    return (seq.count("G") + seq.count("C")) / len(seq)\n\ndef example():\n    with open(os.path.join(os.path.dirname(__file__), "data", "seq.txt")) as f:\n        return f.read().strip()\n');
  write('gc-content/data/seq.txt', 'ATGCGC\n');
  write('broken-sidecar/SKILL.md', '---\nname: broken-sidecar\ndescription: A sidecar that does not compile.\n---\n');
  write('broken-sidecar/kernel.py', 'def ok():\n    return 1\n\ndef bad(:\n    pass\n');
  write('r-mean/SKILL.md', '---\nname: r-mean\ndescription: Trimmed mean in R.\nmetadata:\n  languages: [r]\n---\n');
  write('r-mean/kernel.R', 'trimmed <- function(x) mean(x, trim = 0.1)\n');
  return root;
}

function kernelWith(sandboxMode: 'enforce' | 'off', processEnv: NodeJS.ProcessEnv = {}) {
  const root = skillsFolder();
  const library = new SkillLibrary({ folders: () => [{ source: 'user', dir: root }], disabled: () => new Set() });
  const tools = skillTools(() => library, () => {});
  const host: HostCallHandler = {
    async call(method, args, ctx) {
      const tool = tools.find((t) => t.hostMethods.includes(method));
      if (!tool) throw new Error(`no ${method}`);
      const parsed = tool.parse(args);
      if (!parsed.ok) throw new Error(parsed.error);
      const out = await tool.execute(parsed.args, { sessionId: ctx.sessionId, runId: null, workspace: ctx.workspace, signal: new AbortController().signal, origin: 'cell' });
      return { text: out.text, output: out.output };
    },
  };
  const { sup } = makeSupervisor({ host, prewarm: [], sandboxMode: () => sandboxMode, processEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...processEnv }, skillDirs: () => library.enabled().map((s) => ({ name: s.name, dir: s.dir })) });
  // Closing waits for each worker to leave (1 s grace each); a loaded CI machine needs more than the 10 s default.
  afterAll(() => sup.close(), 30_000);
  return { sup, root };
}

describe('skills in the sandboxed kernel', () => {
  const { sup, root } = kernelWith('enforce');

  it('mounts each skill read-only at /opt/openai4s/skills/<name>; the sidecar imports after a compile check', async () => {
    const r = await sup.execute(
      's1',
      'python',
      [
        'm = host.skills.sidecar("gc-content")',
        'import skill_gc_content',
        'print(m.__name__, skill_gc_content is m, m.gc(m.example()), m.__file__)',
        'print(host.skills.path("gc-content"))',
        'a = host.skills.load("gc-content")',
        'print(a["path"], "|", a["path_is"])',
        'try:\n    open("/opt/openai4s/skills/gc-content/new.txt", "w")\nexcept OSError as e:\n    print("write refused", e.errno)',
      ].join('\n'),
    );
    expect(r.status).toBe('ok');
    expect(r.stdout.split('\n')).toEqual([
      'skill_gc_content True 0.6666666666666666 /opt/openai4s/skills/gc-content/kernel.py',
      '/opt/openai4s/skills/gc-content',
      '/opt/openai4s/skills/gc-content | the skill folder mounted read-only in the kernel sandbox',
      'write refused 30',
      '',
    ]);
    expect(fs.existsSync(path.join(root, 'gc-content', 'new.txt'))).toBe(false);
  });

  it('a sidecar that does not compile is a HostError naming its line; a skill without one says so', async () => {
    const r = await sup.execute('s1', 'python', 'try:\n    host.skills.sidecar("broken-sidecar")\nexcept HostError as e:\n    print(e)\ntry:\n    host.skills.sidecar("r-mean")\nexcept HostError as e:\n    print(e)');
    expect(r.stdout).toContain('skills.sidecar: broken-sidecar/kernel.py does not compile: line 4: ');
    expect(r.stdout).toContain("skill 'r-mean' has an R sidecar (kernel.R)");
    const missing = await sup.execute('s1', 'python', 'host.skills.path("not-enabled")');
    expect(missing.error!.ename).toBe('HostError');
    expect(missing.error!.evalue).toMatch(/not available to this kernel .*restart the kernel/);
  });

  it('R: skill_sidecar sources kernel.R into its own environment from the mounted folder', async () => {
    const r = await sup.execute('s1', 'r', 'fns <- skill_sidecar("r-mean")\ncat(fns$trimmed(c(1:9, 1000)), fns$SKILL_DIR, exists("trimmed"), "\\n")');
    expect(r.error).toBeUndefined();
    expect(r.stdout).toBe(`${(2 + 3 + 4 + 5 + 6 + 7 + 8 + 9) / 8} /opt/openai4s/skills/r-mean FALSE \n`);
  });
});

describe('skills without a kernel sandbox', () => {
  const { sup, root } = kernelWith('off');

  it('the path given to cells is the host folder, and the load answer says so', async () => {
    const r = await sup.execute('s2', 'python', 'a = host.skills.load("gc-content")\nprint(a["path"])\nprint(a["path_is"])\nprint(host.skills.sidecar("gc-content").gc("GGCC"))');
    expect(r.stdout).toBe(`${path.join(root, 'gc-content')}\nthe skill folder on the host (no kernel sandbox: files are read in place, do not write there)\n1.0\n`);
  });
});

describe('skills with OPENAI4S_SANDBOX_HIDE_PATHS=on', () => {
  const { sup, root } = kernelWith('enforce', { OPENAI4S_SANDBOX_HIDE_PATHS: 'on' });

  it('the skills folder comes through one read-only view: mountinfo names no host path, the sidecar still imports', async () => {
    const r = await sup.execute('s3', 'python', 'print(host.skills.sidecar("gc-content").gc("GC"))\nprint(open("/proc/self/mountinfo").read())');
    expect(r.status, r.error?.traceback).toBe('ok');
    const [answer, ...mounts] = r.stdout.split('\n');
    expect(answer).toBe('1.0');
    const mountinfo = mounts.join('\n');
    expect(mountinfo).not.toContain(root);
    // Each skill is a sub-folder of the one view of its skills folder, read-only.
    expect(mountinfo).toMatch(/ \/gc-content \/opt\/openai4s\/skills\/gc-content ro[^\n]* - fuse /);
    expect(mountinfo).toMatch(/ \/r-mean \/opt\/openai4s\/skills\/r-mean ro[^\n]* - fuse /);
  });
});

describe('bwrap arguments for skills', () => {
  it('binds each skill read-only under /opt/openai4s/skills and refuses a name that is not one path component', () => {
    const base = { workspace: '/tmp', workersDir: '/tmp', interpreter: '/usr/bin/python3', cache: null };
    const args = bwrapArgs({ ...base, skills: [{ name: 'gc-content', dir: '/srv/skills/gc-content' }] });
    const at = args.indexOf('/opt/openai4s/skills/gc-content');
    expect(args.slice(at - 2, at + 1)).toEqual(['--ro-bind', '/srv/skills/gc-content', '/opt/openai4s/skills/gc-content']);
    expect(() => bwrapArgs({ ...base, skills: [{ name: '../workers', dir: '/srv/x' }] })).toThrow(/cannot be mounted/);
  });
});
