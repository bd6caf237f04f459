import type { DoctorReport } from '../../../src-preload/contract/doctor';

/**
 * The Debian/Ubuntu packages the Linux app relies on outside itself: the kernel sandbox,
 * and Python and R with the default environments' packages. The deb declares them as
 * Recommends (electron-builder.yml `deb.recommends`, kept equal by a test); the AppImage
 * cannot declare anything, so its first start checks them (systemPackagesToInstall).
 */
export const DEB_RECOMMENDS = ['bubblewrap', 'bindfs', 'fuse3', 'python3', 'python3-numpy', 'python3-pandas', 'python3-matplotlib', 'r-base-core', 'r-cran-jsonlite'] as const;

export interface SystemPackagesAdvice {
  /** Debian package names, in DEB_RECOMMENDS order. */
  missing: string[];
  /** What each missing package is for, one line each. */
  reasons: string[];
  /** The exact command that installs them, or null when nothing is missing. */
  command: string | null;
}

const PYTHON_PACKAGES = { numpy: 'python3-numpy', pandas: 'python3-pandas', matplotlib: 'python3-matplotlib' } as const;

/**
 * What apt would install to make this Linux machine run kernels as the deb would have it.
 * Only the system interpreters count: a Python or R chosen elsewhere (OPENAI4S_PYTHON, a
 * conda environment) is not apt's business, and bwrap that is installed but cannot create
 * namespaces is not fixed by installing it again.
 */
export function systemPackagesToInstall(report: Pick<DoctorReport, 'platform' | 'python' | 'r' | 'sandbox'>): SystemPackagesAdvice {
  const missing = new Set<string>();
  const reasons: string[] = [];
  if (report.platform === 'linux' && report.sandbox.mode !== 'off' && report.sandbox.backend === 'none' && !report.sandbox.path) {
    missing.add('bubblewrap');
    reasons.push('bubblewrap: the sandbox kernels run in');
  }
  const python = report.python;
  if (!python.path) {
    for (const pkg of ['python3', ...Object.values(PYTHON_PACKAGES)]) missing.add(pkg);
    reasons.push('python3 with NumPy, pandas and Matplotlib: the default Python kernel');
  } else if (python.path === '/usr/bin/python3' && python.version) {
    const lacking = (Object.keys(PYTHON_PACKAGES) as (keyof typeof PYTHON_PACKAGES)[]).filter((name) => python.packages[name] === null);
    for (const name of lacking) missing.add(PYTHON_PACKAGES[name]);
    if (lacking.length) reasons.push(`${lacking.join(', ')} for /usr/bin/python3: the default Python kernel`);
  }
  if (!report.r) {
    missing.add('r-base-core');
    missing.add('r-cran-jsonlite');
    reasons.push('R with jsonlite: the R kernel');
  } else if (report.r.path === '/usr/bin/Rscript' && report.r.jsonlite === null) {
    missing.add('r-cran-jsonlite');
    reasons.push('jsonlite for /usr/bin/Rscript: the R kernel');
  }
  const ordered = DEB_RECOMMENDS.filter((pkg) => missing.has(pkg));
  return { missing: ordered, reasons, command: ordered.length ? `sudo apt install ${ordered.join(' ')}` : null };
}
