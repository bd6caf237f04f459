/**
 * How much a package may make `verify` read. A hostile zip can declare small sizes and
 * inflate to gigabytes (a 6 MB bomb once took 6.3 GB of RAM), so every entry is streamed
 * and counted against these limits, and verification stops at the first one exceeded.
 */
export interface ZipLimits {
  /** Entries in the zip's central directory. */
  maxEntries: number;
  /** Uncompressed bytes of one entry (declared or actually inflated). */
  maxEntryBytes: number;
  /** Uncompressed bytes of all entries together. */
  maxTotalBytes: number;
  /** Uncompressed / compressed bytes of one entry, checked once it passes `ratioFloorBytes`. */
  maxRatio: number;
  /** Below this many uncompressed bytes an entry may compress as well as it likes (small JSON, empty logs). */
  ratioFloorBytes: number;
  /** The manifest, the one entry held in memory whole (it is parsed as JSON). */
  maxManifestBytes: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxEntryBytes: 1024 * MiB,
  maxTotalBytes: 4096 * MiB,
  // Text and JSON deflate 5-30x; a long run of one byte deflates ~1000x, which is the bomb.
  maxRatio: 200,
  ratioFloorBytes: MiB,
  maxManifestBytes: 16 * MiB,
};

/** The central directory is read whole; 10,000 entries with long names fit well within this. */
export const MAX_CENTRAL_DIRECTORY_BYTES = 16 * MiB;

/**
 * Compressed bytes handed to the inflater at a time. DEFLATE expands at most 1032:1, so
 * one step produces at most INFLATE_INPUT_CHUNK * 1032 bytes (plus the 32 KiB window
 * the inflater keeps): that is all a limit can be overshot by before it is noticed.
 */
export const INFLATE_INPUT_CHUNK = 4096;
export const MAX_INFLATE_STEP_BYTES = INFLATE_INPUT_CHUNK * 1032 + 32 * 1024;

/** A byte count people can read: 1 GiB, 16 MiB, 300 bytes. */
export function formatBytes(n: number): string {
  if (n >= 1024 * MiB && n % (1024 * MiB) === 0) return `${n / (1024 * MiB)} GiB`;
  if (n >= MiB && n % MiB === 0) return `${n / MiB} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
