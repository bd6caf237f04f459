import fs from 'node:fs';
import zlib from 'node:zlib';
import { Inflate } from 'fflate';
import { ZipRefusal, type ZipEntry } from './zipDirectory';
import { INFLATE_INPUT_CHUNK, formatBytes, type ZipLimits } from './zipLimits';
import { errorMessage } from '../shared/errorMessage';

/** Uncompressed bytes inflated so far across a package, shared by its entries. */
export interface InflateBudget {
  total: number;
}

/**
 * Streams one entry's uncompressed bytes to `onData`, a bounded step at a time, and
 * stops (throwing a ZipRefusal naming the entry and the limit) as soon as the entry
 * inflates beyond its declared size, the per-entry or total limit, or the ratio limit.
 * Nothing but the current step is held. `onInflate` sees every step (tests count with it).
 */
export function streamEntry(
  fd: number,
  entry: ZipEntry,
  limits: ZipLimits,
  budget: InflateBudget,
  onData: (bytes: Uint8Array) => void,
  onInflate?: (entry: string, bytes: number) => void,
): void {
  const where = JSON.stringify(entry.name);
  let inflated = 0;
  let consumed = 0;
  let crc = 0;
  const take = (bytes: Uint8Array) => {
    inflated += bytes.byteLength;
    budget.total += bytes.byteLength;
    onInflate?.(entry.name, bytes.byteLength);
    if (inflated > entry.size) {
      throw new ZipRefusal(`${where}: refused: it inflates to more than the ${entry.size} bytes it declares (the declared size is a lie)`, entry.name, 'declaredSize');
    }
    if (inflated > limits.maxEntryBytes) {
      throw new ZipRefusal(`${where}: refused: it inflates beyond the per-entry limit of ${formatBytes(limits.maxEntryBytes)} (maxEntryBytes)`, entry.name, 'maxEntryBytes');
    }
    if (budget.total > limits.maxTotalBytes) {
      throw new ZipRefusal(`${where}: refused: the package inflates beyond the total limit of ${formatBytes(limits.maxTotalBytes)} (maxTotalBytes)`, entry.name, 'maxTotalBytes');
    }
    if (inflated > limits.ratioFloorBytes && inflated / Math.max(consumed, 1) > limits.maxRatio) {
      throw new ZipRefusal(
        `${where}: refused: it inflates more than ${limits.maxRatio} times its compressed size (maxRatio; ${inflated} bytes from ${consumed}), the signature of a zip bomb`,
        entry.name,
        'maxRatio',
      );
    }
    crc = zlib.crc32(bytes, crc);
    onData(bytes);
  };
  const inflater = entry.method === 8 ? new Inflate((bytes) => bytes.byteLength && take(bytes)) : null;
  const chunk = Buffer.alloc(INFLATE_INPUT_CHUNK);
  while (consumed < entry.compressedSize) {
    const want = Math.min(INFLATE_INPUT_CHUNK, entry.compressedSize - consumed);
    const n = fs.readSync(fd, chunk, 0, want, entry.dataOffset + consumed);
    if (n === 0) throw new ZipRefusal(`${where}: the zip is truncated inside this entry`, entry.name);
    consumed += n;
    const input = new Uint8Array(chunk.subarray(0, n));
    if (!inflater) take(input);
    else {
      try {
        inflater.push(input, consumed === entry.compressedSize);
      } catch (error) {
        if (error instanceof ZipRefusal) throw error;
        throw new ZipRefusal(`${where}: its compressed data is corrupt (${errorMessage(error)})`, entry.name);
      }
    }
  }
  if (inflated !== entry.size) {
    throw new ZipRefusal(`${where}: refused: it inflates to ${inflated} bytes but declares ${entry.size} (the declared size is a lie)`, entry.name, 'declaredSize');
  }
  if (crc >>> 0 !== entry.crc32) throw new ZipRefusal(`${where}: its zip CRC-32 does not match its data (the zip is corrupt)`, entry.name);
}
