/**
 * What a built kernel cache holds (see kernelCache.ts for how and why it is built). Its
 * own module so that the sandbox layout (which binds it) and the builder (which runs
 * under that layout) both import it downward.
 */
export interface KernelCache {
  /** Host folder of the cache. */
  dir: string;
  /** Files of `<dir>/matplotlib` (its font list), copied into each generation's MPLCONFIGDIR. */
  mplFiles: string[];
  /** Other folders of `<dir>` (fontconfig) placed read-only under XDG_CACHE_HOME. */
  xdgDirs: string[];
  /**
   * The Python worker compiled to bytecode by the same trusted step (`<dir>/<file>`), and
   * the SHA-256 of the source it was compiled from: used only while worker.py still has
   * that digest (workerBytecode.ts). Absent when the step could not compile it.
   */
  workerPyc?: { file: string; sha256: string };
}
