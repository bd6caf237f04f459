import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLimitDefaults } from '../../src-main/core/config/kernelLimits';
import { makeSupervisor } from '../core/kernel/helpers';

// Issue 13, item 5: file size, open files and the private /tmp (and /dev/shm) are bounded;
// each limit surfaces as an ordinary, named error and the kernel carries on. Without the
// limits every one of these writes succeeds.
const { sup, dataDir } = makeSupervisor({
  kernelLimits: { ...readLimitDefaults().values, fileSizeMiB: 8, openFiles: 128, tmpMiB: 32 },
});
afterAll(() => sup.close());
const py = (code: string) => sup.execute('files', 'python', code);

describe('file limits', () => {
  it('a write beyond the file size limit fails with "File too large" (EFBIG), and the file stops at the limit', async () => {
    const r = await py('with open("big.bin", "wb") as f:\n    f.write(b"x" * (12 * 1024 * 1024))');
    expect(r.status).toBe('error');
    expect(r.error?.evalue).toMatch(/File too large/);
    expect(r.error?.evalue).toMatch(/file size limit/);
    expect(fs.statSync(path.join(dataDir, 'workspaces', 'files', 'big.bin')).size).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect((await py('print("alive")')).stdout).toBe('alive\n');
  });

  it('opening more files than the limit fails with EMFILE', async () => {
    const r = await py('import tempfile\nheld = [tempfile.TemporaryFile() for _ in range(400)]');
    expect(r.status).toBe('error');
    expect(r.error?.evalue).toMatch(/Too many open files/);
    expect((await py('del held\nprint("ok")')).status).not.toBe('crashed');
  });

  it('/tmp and /dev/shm fill up at their size (ENOSPC), not at the disk or memory', async () => {
    const r = await py(
      // 4 MiB files (under the 8 MiB file size limit), MiB by MiB, until something refuses.
      'import os, errno, shutil\nres = {}\nfor d in ("/tmp", "/dev/shm"):\n    os.makedirs(d + "/fill")\n    n = 0\n    try:\n        for i in range(16):\n' +
        '            with open("%s/fill/%d" % (d, i), "wb") as f:\n                for _ in range(4):\n                    f.write(b"x" * (1024 * 1024)); f.flush(); n += 1\n' +
        '    except OSError as e:\n        res[d] = (errno.errorcode[e.errno], n)\n    else:\n        res[d] = ("no error", n)\n    shutil.rmtree(d + "/fill")\nprint(res)',
    );
    expect(r.status, r.error?.traceback).toBe('ok');
    const res = r.stdout.trim();
    expect(res).toMatch(/'\/tmp': \('ENOSPC', (\d+)\)/);
    expect(res).toMatch(/'\/dev\/shm': \('ENOSPC', (\d+)\)/);
    for (const m of res.matchAll(/ENOSPC', (\d+)/g)) expect(Number(m[1])).toBeLessThanOrEqual(32);
  });
});
