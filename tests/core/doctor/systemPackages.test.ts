import { describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../../src-preload/contract/doctor';
import { systemPackagesToInstall } from '../../../src-main/core/doctor/systemPackages';

type Report = Pick<DoctorReport, 'platform' | 'python' | 'r' | 'sandbox'>;

const ready: Report = {
  platform: 'linux',
  python: { path: '/usr/bin/python3', source: 'declared', version: '3.13.5', packages: { numpy: '2.2.4', pandas: '2.2.3', matplotlib: '3.10.1' } },
  r: { path: '/usr/bin/Rscript', version: '4.5.0', jsonlite: '2.0.0' },
  sandbox: { backend: 'bwrap', available: true, mode: 'auto', path: '/usr/bin/bwrap' },
};

describe('systemPackagesToInstall (the AppImage first-start check)', () => {
  it('asks for nothing on a machine that has everything', () => {
    expect(systemPackagesToInstall(ready)).toEqual({ missing: [], reasons: [], command: null });
  });

  it('names every package and one apt command on a bare machine', () => {
    const advice = systemPackagesToInstall({
      platform: 'linux',
      python: { path: null, source: 'none', version: null, packages: { numpy: null, pandas: null, matplotlib: null } },
      r: null,
      sandbox: { backend: 'none', available: false, mode: 'auto', reason: 'bubblewrap (bwrap) is not installed' },
    });
    expect(advice.command).toBe('sudo apt install bubblewrap python3 python3-numpy python3-pandas python3-matplotlib r-base-core r-cran-jsonlite');
    expect(advice.reasons).toHaveLength(3);
  });

  it('asks only for the Python packages the system interpreter lacks, and jsonlite for the system R', () => {
    const advice = systemPackagesToInstall({
      ...ready,
      python: { ...ready.python, packages: { numpy: '2.2.4', pandas: null, matplotlib: null } },
      r: { path: '/usr/bin/Rscript', version: '4.5.0', jsonlite: null },
    });
    expect(advice.command).toBe('sudo apt install python3-pandas python3-matplotlib r-cran-jsonlite');
  });

  it('leaves interpreters that apt does not manage alone, and does not reinstall a bwrap that cannot create namespaces', () => {
    const advice = systemPackagesToInstall({
      ...ready,
      python: { path: '/opt/conda/bin/python', source: 'env', version: '3.12.1', packages: { numpy: null, pandas: null, matplotlib: null } },
      r: { path: '/opt/R/bin/Rscript', version: '4.4.0', jsonlite: null },
      sandbox: { backend: 'bwrap', available: false, mode: 'auto', path: '/usr/bin/bwrap', reason: 'bwrap cannot create namespaces here' },
    });
    expect(advice).toEqual({ missing: [], reasons: [], command: null });
  });

  it('does not ask for bubblewrap when the sandbox is turned off', () => {
    const advice = systemPackagesToInstall({ ...ready, sandbox: { backend: 'none', available: false, mode: 'off' } });
    expect(advice.missing).toEqual([]);
  });
});
