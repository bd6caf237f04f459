import { afterAll, describe, expect, it } from 'vitest';
import { makeSupervisor } from './helpers';

// What a cell does with processes and its own namespace must not break the kernel: a
// forked child that reaches the end of the cell ends there (it used to become a second
// worker, answer for the cell and wait for ever); host calls come from the cell's own
// process only (a fork shares the answer pipe); a function a cell defines pickles for
// multiprocessing; R's "clear the workspace" line keeps the host API.
const { sup } = makeSupervisor({ host: { call: async (method, args) => (method === 'echo' ? args : Promise.reject(new Error(`no method ${method}`))) } });
afterAll(() => sup.close());

describe('processes a Python cell forks', () => {
  it('a child that exits, raises or runs to the end of the cell ends there; the parent’s cell goes on', async () => {
    const r = await sup.execute(
      'fork',
      'python',
      [
        'import os, sys',
        'codes = []',
        'for how in ("exit", "raise", "end"):',
        '    pid = os.fork()',
        '    if pid == 0:',
        '        if how == "exit": sys.exit(3)',
        '        if how == "raise": raise RuntimeError("child boom")',
        '    else:',
        '        codes.append(os.waitpid(pid, 0)[1] >> 8)',
        'if len(codes) == 3: print("parent", codes)',
      ].join('\n'),
    );
    expect(r.status, r.error?.traceback).toBe('ok');
    expect(r.stdout).toBe('parent [3, 1, 0]\n');
    expect(r.stderr).toContain('RuntimeError: child boom');
    expect(r.stderr).not.toContain('worker.py');
    const next = await sup.execute('fork', 'python', 'print(len(codes))');
    expect(next.stdout).toBe('3\n');
  });

  it('a host call from a forked child is refused in words; the parent’s calls still work', async () => {
    const r = await sup.execute(
      'fork-call',
      'python',
      [
        'import os',
        'r, w = os.pipe()',
        'if os.fork() == 0:',
        '    try:',
        '        host.call("echo", x=1)',
        '    except HostError as e:',
        '        os.write(w, str(e).encode())',
        '    os._exit(0)',
        'os.wait()',
        'print(os.read(r, 500).decode())',
        'print(host.call("echo", x=2))',
      ].join('\n'),
    );
    expect(r.status, r.error?.traceback).toBe('ok');
    expect(r.stdout).toBe("echo: host calls are made from the cell's own process, not from one it forked (os.fork, multiprocessing); threads work\n{'x': 2}\n");
  });

  it('multiprocessing.Pool.map runs a function the cell defined', async () => {
    const r = await sup.execute('pool', 'python', 'from multiprocessing import Pool\ndef square(x):\n    return x * x\nwith Pool(2) as p:\n    print(p.map(square, range(5)))\nprint(__name__)');
    expect(r.status, r.error?.traceback).toBe('ok');
    expect(r.stdout).toBe('[0, 1, 4, 9, 16]\n__main__\n');
  });
});

describe('an R cell that clears its workspace or forks', () => {
  it('rm(list = ls(all.names = TRUE)) keeps host_call and the kernel', async () => {
    const r = await sup.execute('r-rm', 'r', 'x <- 1\nrm(list = ls(all.names = TRUE))\nprint(exists("host_call"))\nprint(host_call("echo", y = 2)$y)');
    expect(r.status, r.error?.traceback).toBe('ok');
    expect(r.stdout).toBe('[1] TRUE\n[1] 2\n');
    const next = await sup.execute('r-rm', 'r', 'print(ls())');
    expect(next.stdout).toBe('character(0)\n');
  });

  it('a host call from a forked child (mclapply) is refused in words', async () => {
    const r = await sup.execute(
      'r-fork',
      'r',
      'out <- parallel::mclapply(1:2, function(i) tryCatch(host_call("echo", i = i), error = function(e) conditionMessage(e)), mc.cores = 2)\nprint(out[[1]])\nprint(host_call("echo", i = 3)$i)',
    );
    expect(r.status, r.error?.traceback).toBe('ok');
    expect(r.stdout).toBe('[1] "echo: host calls are made from the cell\'s own process, not from one it forked (parallel::mclapply)"\n[1] 3\n');
  });
});

describe('a Python cell that closes or redirects its own stdout or stderr', () => {
  it('ends at once (its end marker used to go nowhere and the host waited for ever), and the next cell prints again', async () => {
    const closed = await sup.execute('std', 'python', 'import os\nprint("before", flush=True)\nos.close(1)');
    expect(closed.status, closed.error?.traceback).toBe('ok');
    expect(closed.stdout).toBe('before\n');
    const redirected = await sup.execute('std', 'python', 'import os, sys\nos.dup2(os.open("/dev/null", os.O_WRONLY), 2)\nprint("lost", file=sys.stderr)\nprint("out")');
    expect(redirected.status).toBe('ok');
    expect(redirected.stdout).toBe('out\n');
    const next = await sup.execute('std', 'python', 'import sys\nprint("again")\nprint("err again", file=sys.stderr)');
    expect(next).toMatchObject({ status: 'ok', stdout: 'again\n', stderr: 'err again\n', generation: closed.generation });
  });
});
