import { afterAll, describe, expect, it } from 'vitest';
import { makeSupervisor } from './helpers';

// Code pasted from a Jupyter notebook: what IPython gives beyond Python is either done
// (display(), %matplotlib inline) or refused with what to write instead.
const { sup } = makeSupervisor();
afterAll(() => sup.close());

describe('notebook code in the Python kernel', () => {
  it('drops %matplotlib lines (figures are saved anyway) and keeps one inside a string', async () => {
    const r = await sup.execute('nb', 'python', '%matplotlib inline\nimport matplotlib\nmatplotlib.use("Agg")\nimport matplotlib.pyplot as plt\nplt.plot([1, 2])\ns = """\n%matplotlib inline\n"""\nprint(repr(s))');
    expect(r.error).toBeUndefined();
    expect(r.stdout).toBe("'\\n%matplotlib inline\\n'\n");
    expect(r.displays.some((d) => d.path)).toBe(true);
  });

  it('says what to write instead of another magic, a shell escape or %pip, at its line', async () => {
    const cases: [string, number, string][] = [
      ['x = 1\n%timeit x + 1', 2, '%timeit is an IPython magic, not Python: this kernel runs plain Python'],
      ['!ls -la', 1, '!ls -la is an IPython shell escape, not Python: use subprocess.run(command, shell=True)'],
      ['%pip install numpy', 1, '%pip is an IPython command, not Python: install packages into an environment (the Environments panel, or openai4s env create)'],
    ];
    for (const [code, line, message] of cases) {
      const r = await sup.execute('nb', 'python', code);
      expect(r.error?.ename, code).toBe('SyntaxError');
      expect(r.error?.line, code).toBe(line);
      expect(r.error?.traceback, code).toContain(`SyntaxError: ${message}\n`);
    }
    const plain = await sup.execute('nb', 'python', 'x = 1 +');
    expect(plain.error?.traceback).toContain('SyntaxError: invalid syntax');
  });

  it('has IPython’s display(): each object is shown as a cell’s value is, tables included', async () => {
    const r = await sup.execute('nb', 'python', 'import pandas as pd\nfor i in range(2):\n    display(pd.DataFrame({"a": [i]}))\ndisplay("x", 3)');
    expect(r.error).toBeUndefined();
    expect(r.displays.map((d) => d.data['text/plain'])).toEqual(['   a\n0  0', '   a\n0  1', "'x'", '3']);
    expect(r.displays[0]!.data['application/vnd.openai4s.table+json']).toBeDefined();
  });

  it('says that no keyboard reaches a cell: input() raises with the fix, breakpoint() is skipped with a note', async () => {
    const asked = await sup.execute('nb', 'python', 'name = input("name? ")');
    expect(asked.error).toMatchObject({ ename: 'EOFError', evalue: 'input() cannot read a keyboard in a kernel cell: set the value in the code instead' });
    const paused = await sup.execute('nb', 'python', 'x = 2\nbreakpoint()\nprint(x)');
    expect(paused.error).toBeUndefined();
    expect(paused.stdout).toBe('2\n');
    expect(paused.stderr).toBe('breakpoint() skipped: no debugger can read a keyboard in a kernel cell; print the values you want to see\n');
  });

  it('puts the kernel’s stdout back after a cell that replaced sys.stdout, and says so', async () => {
    const r = await sup.execute('nb', 'python', 'import sys, io\nbuf = io.StringIO()\nsys.stdout = buf\nprint("into the buffer")');
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe("sys.stdout was replaced in this cell; the next cells print to the kernel's output again (use contextlib.redirect_stdout for a block)\n");
    const next = await sup.execute('nb', 'python', 'print(buf.getvalue().strip(), "/ visible")');
    expect(next.stdout).toBe('into the buffer / visible\n');
    expect(next.stderr).toBe('');
  });

  it('runs top-level await as a notebook does, its last value shown, and an interrupt during it keeps the kernel', async () => {
    const r = await sup.execute('nb-await', 'python', 'import asyncio\nkept = await asyncio.sleep(0.05, result=6)\nawait asyncio.sleep(0, result=kept * 7)');
    expect(r.error).toBeUndefined();
    expect(r.displays.map((d) => d.data['text/plain'])).toEqual(['42']);
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const cell = sup.execute('nb-await', 'python', 'print("waiting", flush=True)\nawait asyncio.sleep(30)', { onOutput: (_s, text) => (text.includes('waiting') ? started() : undefined) });
    await running;
    sup.interrupt('nb-await', 'python');
    const stopped = await cell;
    expect(stopped.died).toBeUndefined();
    expect(stopped.error?.ename).toBe('KeyboardInterrupt');
    const after = await sup.execute('nb-await', 'python', 'print(kept)');
    expect(after.generation).toBe(r.generation);
    expect(after.stdout).toBe('6\n');
  });

  it('saves and closes the figures at plt.show(), as a notebook does: a loop of plot, title, show gives one figure a group', async () => {
    const r = await sup.execute('nb-show', 'python', 'import matplotlib\nmatplotlib.use("Agg")\nimport matplotlib.pyplot as plt\nfor g in range(3):\n    plt.plot([1, 2, g])\n    plt.title("group %d" % g)\n    plt.show()\nprint(len(plt.get_fignums()))');
    expect(r.error).toBeUndefined();
    expect(r.stdout).toBe('0\n');
    expect(r.displays.map((d) => d.path)).toEqual(['figures/group-0.png', 'figures/group-1.png', 'figures/group-2.png']);
  });

  it('shows what IPython’s display(), Markdown, HTML and Image give as a notebook does (they printed their reprs)', async () => {
    const r = await sup.execute(
      'nb-ipy',
      'python',
      [
        'from IPython.display import display, Markdown, HTML, Image',
        'import io, pandas as pd, matplotlib',
        'matplotlib.use("Agg")',
        'import matplotlib.pyplot as plt',
        'display(pd.DataFrame({"a": [1]}), Markdown("**bold**"), HTML("<b>x</b>"))',
        'plt.plot([1, 2]); png = io.BytesIO(); plt.savefig(png, format="png"); plt.close("all")',
        'Image(data=png.getvalue())',
      ].join('\n'),
    );
    expect(r.error).toBeUndefined();
    expect(r.stdout).toBe('');
    expect(r.displays[0]!.data['application/vnd.openai4s.table+json']).toBeDefined();
    expect(r.displays[1]!.data).toEqual({ 'text/plain': '**bold**' });
    expect(r.displays[2]!.data['text/html']).toBe('<b>x</b>');
    expect(r.displays[3]!.path).toMatch(/^figures\/.*\.png$/);
  });
});
