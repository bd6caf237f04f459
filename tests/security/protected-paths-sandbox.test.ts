import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTECTED_DIRS, PROTECTED_FILES } from '../../src-main/core/security/protectedPaths';
import { makeSupervisor } from '../core/kernel/helpers';

// Issue 13, item 7 (sandbox half): the protected names at the workspace root are mounted
// read-only in the bwrap sandbox, so a cell can neither write them nor create, rename,
// replace or delete them. Existing ones keep their content; missing ones are left on the
// host as empty placeholders (what kernel-workers/README.md documents).
const { sup } = makeSupervisor();
const ws = sup.workspaceFor('prot');
afterAll(() => sup.close());

beforeAll(() => {
  fs.mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
  fs.writeFileSync(path.join(ws, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  fs.writeFileSync(path.join(ws, '.env'), 'ORIGINAL=1\n');
});

const ATTACK = `
import os, shutil, json
res = {}
def attempt(label, fn):
    try:
        fn(); res[label] = "DONE"
    except OSError as e:
        res[label] = type(e).__name__
def write(p, text="pwned"):
    os.makedirs(os.path.dirname(p) or ".", exist_ok=True)
    with open(p, "w") as f: f.write(text)
attempt("write .git/hooks/pre-commit", lambda: write(".git/hooks/pre-commit", "#!/bin/sh\\necho pwned"))
attempt("write .git/config", lambda: write(".git/config"))
attempt("write .vscode/tasks.json", lambda: write(".vscode/tasks.json"))
attempt("write .env", lambda: write(".env"))
attempt("append .env", lambda: open(".env", "a").write("X=1"))
attempt("write .bashrc", lambda: write(".bashrc"))
attempt("write .mcp.json", lambda: write(".mcp.json"))
attempt("rename .env", lambda: os.rename(".env", "env-moved"))
attempt("remove .env", lambda: os.remove(".env"))
attempt("rename .git", lambda: os.rename(".git", "git-moved"))
attempt("rmtree .git", lambda: shutil.rmtree(".git"))
attempt("remove .bashrc", lambda: os.remove(".bashrc"))
write("evil", "evil")
attempt("replace .mcp.json", lambda: os.replace("evil", ".mcp.json"))
attempt("replace .vscode", lambda: os.replace("evil", ".vscode"))
attempt("symlink over .bashrc", lambda: os.symlink("/etc/passwd", ".bashrc"))
attempt("chmod .env", lambda: os.chmod(".env", 0o777))
attempt("ordinary file", lambda: write("results.txt", "ok"))
print(json.dumps(res))
`;

describe('protected names in the sandboxed workspace', () => {
  it('a cell cannot write, create, rename, replace or delete them; ordinary files still work', async () => {
    const r = await sup.execute('prot', 'python', ATTACK);
    expect(r.status, r.error?.traceback).toBe('ok');
    const res = JSON.parse(r.stdout) as Record<string, string>;
    expect(res['ordinary file']).toBe('DONE');
    const done = Object.entries(res).filter(([label, outcome]) => label !== 'ordinary file' && outcome === 'DONE');
    expect(done).toEqual([]);

    expect(fs.existsSync(path.join(ws, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(fs.readFileSync(path.join(ws, '.git', 'HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
    expect(fs.existsSync(path.join(ws, '.vscode', 'tasks.json'))).toBe(false);
    expect(fs.readFileSync(path.join(ws, '.env'), 'utf8')).toBe('ORIGINAL=1\n');
    expect(fs.lstatSync(path.join(ws, '.bashrc')).isFile()).toBe(true);
    expect(fs.readFileSync(path.join(ws, '.bashrc'), 'utf8')).toBe('');
    expect(fs.readFileSync(path.join(ws, '.mcp.json'), 'utf8')).toBe('');
    expect(fs.readFileSync(path.join(ws, 'results.txt'), 'utf8')).toBe('ok');
  });

  it('every protected name is a read-only mount point inside the sandbox', async () => {
    const r = await sup.execute('prot', 'python', 'mounts = open("/proc/self/mountinfo").read().split("\\n")\nprint(sorted({l.split()[4] for l in mounts if l and l.split()[4].startswith("/workspace/") and " ro," in " " + l.split()[5] + ","}))');
    const mounted = JSON.parse(r.stdout.replace(/'/g, '"')) as string[];
    expect(mounted).toEqual([...PROTECTED_DIRS, ...PROTECTED_FILES].map((n) => `/workspace/${n}`).sort());
  });

  it('a symlink planted at a protected name while no kernel runs is removed, never followed', async () => {
    await sup.restart('prot', 'python');
    fs.rmSync(path.join(ws, '.mcp.json'));
    fs.symlinkSync('/etc/hostname', path.join(ws, '.mcp.json'));
    const r = await sup.execute('prot', 'python', 'print(repr(open(".mcp.json").read()))');
    expect(r.stdout).toBe("''\n");
    expect(fs.lstatSync(path.join(ws, '.mcp.json')).isSymbolicLink()).toBe(false);
  });
});
