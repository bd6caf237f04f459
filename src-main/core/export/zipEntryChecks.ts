import { collisionKey, parentFolders, unsafeNameReason } from './entryNames';
import { MANIFEST_FILE, type ManifestEntry } from './manifest';
import type { ZipEntry } from './zipDirectory';
import { formatBytes, type ZipLimits } from './zipLimits';

/** A reason to refuse a package before anything in it is inflated. */
export interface Refusal {
  message: string;
  entry: string | null;
  limit: keyof ZipLimits | null;
}

/** Unix file types an export never holds, by name: unzip would create them, not a file. */
const SPECIAL_TYPES: Record<number, string> = { 0o120000: 'a symbolic link', 0o140000: 'a socket', 0o060000: 'a block device', 0o020000: 'a character device', 0o010000: 'a fifo' };
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

const refusal = (entry: string, message: string, limit: keyof ZipLimits | null = null): Refusal => ({ message: `${JSON.stringify(entry)}: refused: ${message}`, entry, limit });

/**
 * The zip's entries as a whole: safe names, each name once (also case-folded), only files
 * and folders (no symlink or device by its Unix attributes), no folder entry with data, no name that is both a file and a folder, and declared sizes within
 * the limits. Directory-only checks: nothing is inflated yet.
 */
export function checkZipEntries(entries: readonly ZipEntry[], limits: ZipLimits): Refusal[] {
  const refusals: Refusal[] = [];
  const seen = new Map<string, string>();
  const files = new Set<string>();
  let declaredTotal = 0;
  for (const entry of entries) {
    const { name } = entry;
    const unsafe = unsafeNameReason(name);
    if (unsafe) refusals.push(refusal(name, `unsafe name: ${unsafe}`));
    const key = collisionKey(name);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      refusals.push(refusal(name, earlier === name ? 'the zip holds this name twice (tools disagree on which copy is the file)' : `the zip also holds ${JSON.stringify(earlier)}, the same file on a case-insensitive disk`));
    } else seen.set(key, name);
    if (entry.unixType && entry.unixType !== S_IFREG && entry.unixType !== S_IFDIR) {
      const kind = SPECIAL_TYPES[entry.unixType] ?? `a special file (type 0o${entry.unixType.toString(8)})`;
      refusals.push(refusal(name, `its attributes make it ${kind}, which unzip would create instead of a file; an export holds only files and folders`));
    }
    if (entry.isDirectory) {
      if (entry.size > 0) refusals.push(refusal(name, `a folder entry carrying ${entry.size} bytes of data (extractors drop it; verify would have ignored it)`));
    } else files.add(key);
    declaredTotal += entry.size;
    if (entry.size > limits.maxEntryBytes) refusals.push(refusal(name, `it declares ${entry.size} bytes, more than the per-entry limit of ${formatBytes(limits.maxEntryBytes)} (maxEntryBytes)`, 'maxEntryBytes'));
    else if (entry.size > limits.ratioFloorBytes && entry.size / Math.max(entry.compressedSize, 1) > limits.maxRatio) {
      refusals.push(refusal(name, `it declares ${entry.size} bytes from ${entry.compressedSize} compressed, more than ${limits.maxRatio} times (maxRatio), the signature of a zip bomb`, 'maxRatio'));
    }
  }
  for (const entry of entries) {
    const clash = parentFolders(entry.name).find((folder) => files.has(collisionKey(folder)));
    if (clash) refusals.push(refusal(entry.name, `its folder ${JSON.stringify(clash)} is also a file in the zip`));
  }
  if (declaredTotal > limits.maxTotalBytes) {
    refusals.push({ message: `refused: the zip declares ${declaredTotal} bytes in all, more than the total limit of ${formatBytes(limits.maxTotalBytes)} (maxTotalBytes)`, entry: null, limit: 'maxTotalBytes' });
  }
  return refusals;
}

/** The manifest's list: safe names, each once (also case-folded), itself not listed, sorted. */
export function checkManifestEntries(files: readonly ManifestEntry[], sorted: boolean): Refusal[] {
  const refusals: Refusal[] = [];
  const seen = new Map<string, string>();
  files.forEach((file, i) => {
    const unsafe = unsafeNameReason(file.path);
    if (unsafe) refusals.push(refusal(file.path, `the manifest lists an unsafe name: ${unsafe}`));
    if (file.path.endsWith('/')) refusals.push(refusal(file.path, 'the manifest lists a folder as a file'));
    if (file.path === MANIFEST_FILE) refusals.push(refusal(file.path, 'the manifest lists itself'));
    const key = collisionKey(file.path);
    const earlier = seen.get(key);
    if (earlier !== undefined) refusals.push(refusal(file.path, earlier === file.path ? 'the manifest lists this name twice' : `the manifest also lists ${JSON.stringify(earlier)}, the same file on a case-insensitive disk`));
    else seen.set(key, file.path);
    const previous = files[i - 1];
    if (sorted && previous && !(previous.path < file.path)) refusals.push(refusal(file.path, 'the manifest file list is not sorted by path'));
  });
  return refusals;
}
