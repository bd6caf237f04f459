import { afterAll, describe, expect, it } from 'vitest';
import { makeSupervisor } from './helpers';

// The Python worker's I/O (a reader thread on fd 4 turning interrupt frames into SIGINT,
// host-call answers read on fd 5 by the calling thread, no end marker when the output
// sockets are already drained)
// must not change what a cell sees: these run the real worker under the real bwrap.
let asyncCalls = 0;
/** Called once a burst's last echo is answered (the burst ends before the interrupt is sent). */
let afterBurst: (() => void) | null = null;
const { sup } = makeSupervisor({
  host: {
    call(method, args) {
      if (method === 'slow') {
        asyncCalls++;
        return new Promise((resolve) => setTimeout(() => resolve({ late: args }), 20));
      }
      if (method === 'echo') {
        if (args.i === 499 && afterBurst) setTimeout(afterBurst, 100);
        return args;
      }
      if (method === 'hang') return new Promise(() => {}); // answered only when the cell is interrupted
      if (method === 'interrupt_me') {
        // The interrupt frame goes out just before the answer: both may be read at once.
        sup.interrupt(String(args.session), 'python');
        return 'answered';
      }
      throw new Error(`no method ${method}`);
    },
  },
});
afterAll(() => sup.close());

describe('python worker wire', () => {
  it('gives each of 300 back-to-back cells exactly its own stdout and stderr, however written', async () => {
    for (let i = 0; i < 300; i++) {
      const code =
        i % 3 === 0
          ? `print(${i})\nimport sys; sys.stderr.write("e${i}")`
          : i % 3 === 1
            ? `import os; os.write(1, b"${i}\\n"); os.write(2, b"e${i}")`
            : `import subprocess; subprocess.run(["sh", "-c", "echo ${i}; printf e${i} >&2"])`;
      const r = await sup.execute('w-order', 'python', code);
      expect({ i, out: r.stdout, err: r.stderr }).toEqual({ i, out: `${i}\n`, err: `e${i}` });
    }
  }, 60_000);

  it('answers 20,000 host calls in a row (no answer lost or taken by the wrong call on fd 5)', async () => {
    const r = await sup.execute('w-many', 'python', 'total = 0\nfor i in range(20_000):\n    total += host.call("echo", i=i)["i"]\nprint(total)');
    expect(r.status).toBe('ok');
    expect(r.stdout).toBe(`${(19_999 * 20_000) / 2}\n`);
  }, 30_000);

  it('answers host calls whose handler is asynchronous, and calls from a thread of the cell', async () => {
    const r = await sup.execute(
      'w-calls',
      'python',
      'import threading\nres = {}\n' +
        'def worker():\n    res["thread"] = host.call("echo", who="thread")["who"]\n' +
        't = threading.Thread(target=worker); t.start(); t.join()\n' +
        'res["slow"] = host.call("slow", n=1)["late"]["n"]\nprint(res)',
    );
    expect(r.status).toBe('ok');
    expect(r.stdout).toBe("{'thread': 'thread', 'slow': 1}\n");
    expect(asyncCalls).toBe(1);
  });

  it('interrupts a cell blocked in time.sleep and a cell looping on host calls, keeping the generation', async () => {
    const first = await sup.execute('w-int', 'python', 'kept = 1');
    setTimeout(() => sup.interrupt('w-int', 'python'), 200);
    const sleeping = await sup.execute('w-int', 'python', 'import time\ntime.sleep(30)');
    expect(sleeping.status).toBe('interrupted');
    expect(sleeping.error!.line).toBe(2);
    setTimeout(() => sup.interrupt('w-int', 'python'), 200);
    const calling = await sup.execute('w-int', 'python', 'n = 0\nwhile True:\n    host.call("echo", n=n)\n    n += 1');
    expect(calling.status).toBe('interrupted');
    expect(calling.error!.ename).toBe('KeyboardInterrupt');
    const after = await sup.execute('w-int', 'python', 'print(kept, n > 0)');
    expect(after.stdout).toBe('1 True\n');
    expect(after.generation).toBe(first.generation);
  });

  // After a burst of host calls, user code must still hear an interrupt (an interrupt frame
  // becomes SIGINT for the running cell), without the kill.
  it('interrupts user code that runs after a burst of host calls, without killing the generation', async () => {
    const first = await sup.execute('w-burst', 'python', 'kept = 2');
    for (const tail of ['import time\ntime.sleep(30)', 'while True:\n    pass']) {
      // The interrupt comes 100 ms after the burst's last answer, so the tail is running.
      afterBurst = () => sup.interrupt('w-burst', 'python');
      const r = await sup.execute('w-burst', 'python', `for i in range(500):\n    host.call("echo", i=i)\n${tail}`);
      expect(r.status).toBe('interrupted');
      expect(r.died).toBeUndefined();
      expect(r.error!.ename).toBe('KeyboardInterrupt');
      expect(r.error!.line).toBeGreaterThanOrEqual(3);
      // Heard as KeyboardInterrupt, not killed after the grace bound: no death, same generation below.
    }
    afterBurst = null;
    const after = await sup.execute('w-burst', 'python', 'print(kept)');
    expect(after.stdout).toBe('2\n');
    expect(after.generation).toBe(first.generation);
  });

  it('interrupts a cell blocked on a host call that never answers; its next calls get their own answers', async () => {
    const first = await sup.execute('w-hang', 'python', 'kept = 4');
    setTimeout(() => sup.interrupt('w-hang', 'python'), 200);
    const r = await sup.execute('w-hang', 'python', 'import time\nt = time.time()\nhost.call("hang")');
    expect(r.status).toBe('interrupted');
    expect(r.died).toBeUndefined();
    expect(r.error!.line).toBe(3);
    const after = await sup.execute('w-hang', 'python', 'print(kept, [host.call("echo", i=i)["i"] for i in range(3)])');
    expect(after.stdout).toBe('4 [0, 1, 2]\n');
    expect(after.generation).toBe(first.generation);
  });

  it('an interrupt that arrives together with a host answer stops the cell', async () => {
    const first = await sup.execute('w-with', 'python', 'kept = 3');
    for (const code of ['host.call("interrupt_me", session="w-with")\nwhile True:\n    pass', 'for i in range(100):\n    host.call("echo", i=i)\nhost.call("interrupt_me", session="w-with")\nwhile True:\n    pass']) {
      const r = await sup.execute('w-with', 'python', code);
      expect(r.status).toBe('interrupted');
      expect(r.died).toBeUndefined();
      expect(r.error!.ename).toBe('KeyboardInterrupt');
    }
    expect((await sup.execute('w-with', 'python', 'print(kept)')).generation).toBe(first.generation);
  });

  it('answers a thread of the cell right after a burst of main-thread host calls, and the reverse', async () => {
    const r = await sup.execute(
      'w-mixed',
      'python',
      'import threading\nres = []\n' +
        'def worker():\n    res.append(host.call("echo", who="thread")["who"])\n' +
        'for round in range(20):\n' +
        '    for i in range(50):\n        host.call("echo", i=i)\n' +
        '    t = threading.Thread(target=worker); t.start(); t.join()\n' +
        'print(len(res), host.call("echo", who="main")["who"])',
    );
    expect(r.status).toBe('ok');
    expect(r.stdout).toBe('20 main\n');
  });

  it('encodes host-call args as before (unicode kept, other values as their repr); a failed encoding (a cycle, NaN, a raising repr) leaves nothing behind', async () => {
    const r = await sup.execute(
      'w-args',
      'python',
      'print(host.call("echo", s="é中😀", n=[1, 2.5, None, True], o=object())["o"].startswith("<object"))\n' +
        'cyc = {}\ncyc["self"] = cyc\n' +
        'for _ in range(3):\n    try:\n        host.call("echo", c=cyc)\n    except HostError as e:\n        print("cycle:", e)\n' +
        'try:\n    host.call("echo", mean=float("nan"))\nexcept HostError as e:\n    print(e)\n' +
        'class Bad:\n    def __repr__(self):\n        raise RuntimeError("no repr")\n' +
        'items = [Bad()]\ntry:\n    host.call("echo", items=items)\nexcept RuntimeError as e:\n    print(e)\n' +
        'items[0] = 1\nprint(host.call("echo", items=items), host.call("echo", s="é中😀")["s"])',
    );
    expect(r.status).toBe('ok');
    expect(r.stdout).toBe(
      'True\n' +
        'cycle: echo: its arguments cannot be sent (an argument contains itself)\n'.repeat(3) +
        'echo: its arguments cannot be sent (NaN and infinity have no JSON form: pass None or a string instead)\n' +
        "no repr\n{'items': [1]} é中😀\n",
    );
  });

  it('an interrupt sent as soon as the cell starts is not lost', async () => {
    await sup.execute('w-now', 'python', 'pass');
    const running = sup.execute('w-now', 'python', 'while True: pass');
    // The interrupt function is registered synchronously once the cell is sent.
    await new Promise((r) => setImmediate(r));
    expect(sup.interrupt('w-now', 'python')).toBe(true);
    const r = await running;
    expect(r.status).toBe('interrupted');
    expect(r.died).toBeUndefined();
  });

  it('a late interrupt between cells does not hit the next cell', async () => {
    await sup.execute('w-late', 'python', 'pass');
    const quick = sup.execute('w-late', 'python', 'x = 1');
    await new Promise((r) => setImmediate(r));
    sup.interrupt('w-late', 'python');
    await quick;
    const next = await sup.execute('w-late', 'python', 'import time\ntime.sleep(0.2)\nprint("done")');
    expect(next.status).toBe('ok');
    expect(next.stdout).toBe('done\n');
  });
});
