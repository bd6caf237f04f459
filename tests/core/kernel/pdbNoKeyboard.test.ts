import { afterAll, describe, expect, it } from 'vitest';
import { makeSupervisor } from './helpers';

// No keyboard reaches a cell: pdb's entry points printed a (Pdb) prompt, read end-of-file
// and ended the cell with BdbQuit. They are skipped with a note (as breakpoint() is) and the
// cell goes on; a debugger given its own commands still runs them.
const { sup } = makeSupervisor();
afterAll(() => sup.close());

const NOTE = 'no debugger can read a keyboard in a kernel cell';

describe('pdb in a Python cell', () => {
  it('skips pdb.set_trace() and Pdb().set_trace() with a note, and the cell goes on', async () => {
    const r = await sup.execute('pdb', 'python', 'import pdb\nx = 2\npdb.set_trace()\npdb.Pdb().set_trace()\nprint(x)');
    expect(r.error).toBeUndefined();
    expect(r.stdout).toBe('2\n');
    expect(r.stderr).toBe(`pdb.set_trace() skipped: ${NOTE}; print the values you want to see\n`.repeat(2));
  });

  it('skips post_mortem() and pm(), and runs the code given to run(), runeval() and runcall() without the debugger', async () => {
    const r = await sup.execute(
      'pdb',
      'python',
      ['import pdb, sys', 'try:', '    1 / 0', 'except ZeroDivisionError:', '    pdb.post_mortem()', 'pdb.pm()', 'pdb.run("z = x * 7")', 'print(z, pdb.runeval("x + 1"), pdb.runcall(lambda a, b=0: a + b, 2, b=3))'].join('\n'),
    );
    expect(r.error).toBeUndefined();
    expect(r.stdout).toBe('14 3 5\n');
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([
      `pdb.post_mortem() skipped: ${NOTE}; print the traceback instead (traceback.print_exc())`,
      `pdb.pm() skipped: ${NOTE}; print the traceback instead (traceback.print_exc())`,
      `pdb.run() ran its code without the debugger: ${NOTE}; print the values you want to see`,
      `pdb.runeval() ran its code without the debugger: ${NOTE}; print the values you want to see`,
      `pdb.runcall() ran its code without the debugger: ${NOTE}; print the values you want to see`,
    ]);
  });

  it('leaves a Pdb given its own stdin alone: it stops in the cell’s frame and runs its commands', async () => {
    const r = await sup.execute('pdb', 'python', 'import io, pdb\nx = 2\np = pdb.Pdb(stdin=io.StringIO("p x * 10\\nc\\n"), stdout=io.StringIO())\np.set_trace(); y = 1\nprint(p.stdout.getvalue())');
    expect(r.error).toBeUndefined();
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('> <cell-');
    expect(r.stdout).toContain('(Pdb) 20\n');
  });

  it('skips ipdb’s entry points too (a package whose functions live in ipdb.__main__, as the real one’s do)', async () => {
    const r = await sup.execute(
      'pdb-ipdb',
      'python',
      [
        'import os, sys',
        'os.makedirs("lib/ipdb", exist_ok=True)',
        'open("lib/ipdb/__init__.py", "w").write("from ipdb.__main__ import set_trace, post_mortem\\n")',
        'open("lib/ipdb/__main__.py", "w").write("import pdb, sys\\ndef set_trace(frame=None):\\n    pdb.Pdb().set_trace(frame or sys._getframe().f_back)\\ndef post_mortem(tb=None):\\n    raise RuntimeError(\\"a debugger ran\\")\\n")',
        'sys.path.insert(0, os.path.abspath("lib"))',
        'import ipdb',
        'ipdb.set_trace()',
        'from ipdb import post_mortem',
        'post_mortem()',
        'print("went on")',
      ].join('\n'),
    );
    expect(r.error).toBeUndefined();
    expect(r.stdout).toBe('went on\n');
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([`ipdb.set_trace() skipped: ${NOTE}; print the values you want to see`, `ipdb.post_mortem() skipped: ${NOTE}; print the traceback instead (traceback.print_exc())`]);
  });
});
