import { afterAll, describe, expect, it } from 'vitest';
import { makeSupervisor } from '../core/kernel/helpers';

// Issue 13, item 6: under the real bwrap, the calls a kernel never needs fail with EPERM
// from a cell (Python ctypes straight into libc), while the science stack, subprocesses
// and threads keep working. Before the filter every one of these calls succeeded.
const { sup } = makeSupervisor();
afterAll(() => sup.close());

const PROBE = `
import ctypes, ctypes.util, errno, os, json
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def err(rc):
    return "ok" if rc != -1 else errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))
out = {}
out["ptrace_traceme"] = err(libc.ptrace(0, 0, None, None))
class iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]
buf = ctypes.create_string_buffer(8)
local = iovec(ctypes.cast(buf, ctypes.c_void_p), 8)
remote = iovec(ctypes.cast(buf, ctypes.c_void_p), 8)
out["process_vm_readv"] = err(libc.process_vm_readv(os.getpid(), ctypes.byref(local), 1, ctypes.byref(remote), 1, 0))
params = ctypes.create_string_buffer(120)
out["io_uring_setup"] = err(libc.syscall(425, 4, params))  # 425 on x86_64 and aarch64
out["unshare_user"] = err(libc.unshare(0x10000000))
out["unshare_net"] = err(libc.unshare(0x40000000))
out["mount_tmpfs"] = err(libc.mount(b"none", b"/tmp", b"tmpfs", 0, None))
print(json.dumps(out))
`;

describe('seccomp in the real sandbox', () => {
  it('ptrace, process_vm_readv, io_uring_setup, unshare and mount fail with EPERM', async () => {
    const r = await sup.execute('sec', 'python', PROBE);
    expect(r.status, r.error?.traceback).toBe('ok');
    expect(JSON.parse(r.stdout)).toEqual({
      ptrace_traceme: 'EPERM',
      process_vm_readv: 'EPERM',
      io_uring_setup: 'EPERM',
      unshare_user: 'EPERM',
      unshare_net: 'EPERM',
      mount_tmpfs: 'EPERM',
    });
  });

  it('numpy, matplotlib, subprocess, multiprocessing and threads still work', async () => {
    const r = await sup.execute(
      'sec',
      'python',
      [
        'import numpy as np, matplotlib, matplotlib.pyplot as plt, subprocess, threading, multiprocessing',
        'a = np.random.default_rng(0).random((300, 300)); print(round(float(np.linalg.det(a @ a.T) > 0)))',
        'plt.plot([1, 2, 3]); plt.savefig("s.png"); print("fig")',
        'print(subprocess.run(["sh", "-c", "echo sub"], capture_output=True, text=True).stdout.strip())',
        'res = []; t = threading.Thread(target=lambda: res.append("thread")); t.start(); t.join(); print(res[0])',
        'with multiprocessing.get_context("fork").Pool(2) as p: print(sum(p.map(abs, [-1, -2, 3])))',
      ].join('\n'),
    );
    expect(r.status, r.error?.traceback).toBe('ok');
    expect(r.stdout).toBe('1\nfig\nsub\nthread\n6\n');
  });

  it('R still runs a subprocess', async () => {
    const r = await sup.execute('sec', 'r', 'cat(system("echo fromR", intern = TRUE), "\\n")');
    expect(r.status, r.error?.evalue).toBe('ok');
    expect(r.stdout).toContain('fromR');
  });
});
