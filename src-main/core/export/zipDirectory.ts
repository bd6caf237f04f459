import fs from 'node:fs';
import { MAX_CENTRAL_DIRECTORY_BYTES, formatBytes, type ZipLimits } from './zipLimits';

/**
 * Reads a zip's table of contents without inflating anything: the end record, the
 * central directory, and each entry's local header. It is parsed here rather than by a
 * library so that everything an extractor could act on is checked: the local headers
 * must agree with the central directory and tile the file with no gaps or overlaps (a
 * streaming extractor reads local headers, a listing reads the directory; a package where
 * the two disagree shows each tool different files).
 */

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  flags: number;
  crc32: number;
  compressedSize: number;
  /** The uncompressed size the directory declares (checked against the real one while inflating). */
  size: number;
  localOffset: number;
  /** Where the entry's compressed bytes start. */
  dataOffset: number;
  isDirectory: boolean;
  /** The Unix file type from the upper 16 bits of the external attributes (0 when none is stated): what unzip creates (a symlink, a device…). */
  unixType: number;
}

/** Why a package is refused: which entry (if one) and which limit (if one). */
export class ZipRefusal extends Error {
  constructor(
    message: string,
    readonly entry: string | null = null,
    readonly limit: keyof ZipLimits | 'declaredSize' | null = null,
  ) {
    super(message);
  }
}

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const DESCRIPTOR_SIGNATURE = 0x08074b50;
const FLAG_ENCRYPTED = 0x1;
const FLAG_DESCRIPTOR = 0x8;
const FLAG_STRONG_ENCRYPTION = 0x40;
const FLAG_UTF8 = 0x800;
/** The file-type bits of a Unix mode (st_mode & S_IFMT). */
const S_IFMT = 0o170000;

/** A fixed-size record's fields: name -> [offset, width in bytes], little-endian (APPNOTE 4.3). */
type Layout = Readonly<Record<string, readonly [offset: number, width: 2 | 4]>>;

/** The end of central directory record (4.3.16), after its signature. */
const END_RECORD = { disk: [4, 2], cdDisk: [6, 2], onDisk: [8, 2], entries: [10, 2], cdSize: [12, 4], cdOffset: [16, 4] } as const;
/** A central directory header (4.3.12): 46 bytes, then name, extra field and comment. */
const CENTRAL_HEADER = {
  flags: [8, 2],
  method: [10, 2],
  crc32: [16, 4],
  compressedSize: [20, 4],
  size: [24, 4],
  nameLength: [28, 2],
  extraLength: [30, 2],
  commentLength: [32, 2],
  diskStart: [34, 2],
  externalAttributes: [38, 4],
  localOffset: [42, 4],
} as const;
/** A local file header (4.3.7): 30 bytes, then name and extra field. */
const LOCAL_HEADER = { flags: [6, 2], method: [8, 2], crc32: [14, 4], compressedSize: [18, 4], size: [22, 4], nameLength: [26, 2], extraLength: [28, 2] } as const;

function readFields<L extends Layout>(buf: Buffer, at: number, layout: L): { [K in keyof L]: number } {
  const out = {} as { [K in keyof L]: number };
  for (const key of Object.keys(layout) as (keyof L & string)[]) {
    const [offset, width] = layout[key]!;
    out[key] = width === 2 ? buf.readUInt16LE(at + offset) : buf.readUInt32LE(at + offset);
  }
  return out;
}

function readAt(fd: number, offset: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const n = fs.readSync(fd, buf, done, length - done, offset + done);
    if (n === 0) throw new ZipRefusal(`the zip is truncated (wanted ${length} bytes at offset ${offset})`);
    done += n;
  }
  return buf;
}

/** The end-of-central-directory record: it must end exactly at the end of the file. */
function findEnd(fd: number, fileSize: number): { entries: number; cdSize: number; cdOffset: number; at: number } {
  const tailLength = Math.min(fileSize, 22 + 0xffff);
  if (tailLength < 22) throw new ZipRefusal('the file is too short to be a zip');
  const tail = readAt(fd, fileSize - tailLength, tailLength);
  for (let i = tailLength - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) !== EOCD_SIGNATURE || i + 22 + tail.readUInt16LE(i + 20) !== tailLength) continue;
    const { disk, cdDisk, onDisk, entries, cdSize, cdOffset } = readFields(tail, i, END_RECORD);
    const at = fileSize - tailLength + i;
    // An earlier end record whose comment swallows this one would let tools disagree on the contents.
    for (let j = i - 1; j >= 0; j--) {
      if (tail.readUInt32LE(j) === EOCD_SIGNATURE && j + 22 + tail.readUInt16LE(j + 20) === tailLength) throw new ZipRefusal('the zip has two end records (tools would disagree on its contents)');
    }
    const zip64 = entries === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff || (i >= 20 && tail.readUInt32LE(i - 20) === ZIP64_LOCATOR_SIGNATURE);
    if (zip64) throw new ZipRefusal('the zip uses ZIP64, which an OpenAI4S export never needs');
    if (disk !== 0 || cdDisk !== 0 || onDisk !== entries) throw new ZipRefusal('the zip spans several disks, which an OpenAI4S export never does');
    if (cdOffset + cdSize !== at) throw new ZipRefusal('the zip has bytes between its central directory and its end record');
    return { entries, cdSize, cdOffset, at };
  }
  throw new ZipRefusal('no end-of-central-directory record (not a zip, or bytes were appended after it)');
}

function decodeName(raw: Buffer, flags: number): string {
  if (flags & FLAG_UTF8) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(raw);
    } catch {
      throw new ZipRefusal(`an entry name is flagged UTF-8 but is not valid UTF-8 (${raw.toString('hex')})`);
    }
  }
  // Without the flag, bytes above 0x7f mean CP437 to some tools and something else to others.
  if (raw.some((b) => b > 0x7f)) throw new ZipRefusal(`an entry name has non-ASCII bytes without the UTF-8 flag, so tools disagree on it (${raw.toString('hex')})`);
  return raw.toString('latin1');
}

/** Parses the central directory and checks each local header against it. */
export function readZipDirectory(fd: number, limits: ZipLimits): ZipEntry[] {
  const fileSize = fs.fstatSync(fd).size;
  const end = findEnd(fd, fileSize);
  if (end.entries > limits.maxEntries) {
    throw new ZipRefusal(`the zip has ${end.entries} entries, more than the limit of ${limits.maxEntries} (maxEntries)`, null, 'maxEntries');
  }
  if (end.cdSize > MAX_CENTRAL_DIRECTORY_BYTES) throw new ZipRefusal(`the zip's central directory is larger than ${formatBytes(MAX_CENTRAL_DIRECTORY_BYTES)}`);
  const cd = readAt(fd, end.cdOffset, end.cdSize);
  const entries: ZipEntry[] = [];
  const rawNames: Buffer[] = [];
  let p = 0;
  for (let n = 0; n < end.entries; n++) {
    if (p + 46 > cd.length || cd.readUInt32LE(p) !== CENTRAL_SIGNATURE) throw new ZipRefusal(`the zip's central directory is malformed at entry ${n + 1}`);
    const { flags, method, crc32, compressedSize, size, nameLength, extraLength, commentLength, diskStart, externalAttributes, localOffset } = readFields(cd, p, CENTRAL_HEADER);
    if (p + 46 + nameLength + extraLength + commentLength > cd.length) throw new ZipRefusal(`the zip's central directory is malformed at entry ${n + 1}`);
    const rawName = cd.subarray(p + 46, p + 46 + nameLength);
    const name = decodeName(rawName, flags);
    p += 46 + nameLength + extraLength + commentLength;
    if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff) throw new ZipRefusal('the zip uses ZIP64, which an OpenAI4S export never needs', name);
    if (diskStart !== 0) throw new ZipRefusal(`${JSON.stringify(name)}: the entry lives on another disk`, name);
    if (flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION)) throw new ZipRefusal(`${JSON.stringify(name)}: the entry is encrypted`, name);
    if (method !== 0 && method !== 8) throw new ZipRefusal(`${JSON.stringify(name)}: compression method ${method} (only stored and deflate are read)`, name);
    entries.push({ name, method, flags, crc32, compressedSize, size, localOffset, dataOffset: 0, isDirectory: name.endsWith('/'), unixType: (externalAttributes >>> 16) & S_IFMT });
    rawNames.push(rawName);
  }
  if (p !== cd.length) throw new ZipRefusal("the zip's central directory has bytes after its last entry");
  checkLocalHeaders(fd, entries, rawNames, end.cdOffset);
  return entries;
}

/** Each local header agrees with the directory, and the entries tile [0, central directory) exactly. */
function checkLocalHeaders(fd: number, entries: ZipEntry[], rawNames: Buffer[], cdOffset: number): void {
  const order = entries.map((_, i) => i).sort((a, b) => entries[a]!.localOffset - entries[b]!.localOffset);
  let expected = 0;
  for (const i of order) {
    const entry = entries[i]!;
    const where = JSON.stringify(entry.name);
    if (entry.localOffset !== expected) {
      throw new ZipRefusal(
        entry.localOffset < expected ? `${where}: the entry overlaps the one before it` : `${where}: there are ${entry.localOffset - expected} unlisted bytes before this entry (a hidden entry?)`,
        entry.name,
      );
    }
    if (entry.localOffset + 30 > cdOffset) throw new ZipRefusal(`${where}: its local header lies outside the zip's entries`, entry.name);
    const header = readAt(fd, entry.localOffset, 30);
    if (header.readUInt32LE(0) !== LOCAL_SIGNATURE) throw new ZipRefusal(`${where}: no local header where the directory says it is`, entry.name);
    const local = readFields(header, 0, LOCAL_HEADER);
    const localName = readAt(fd, entry.localOffset + 30, local.nameLength);
    if (!localName.equals(rawNames[i]!)) throw new ZipRefusal(`${where}: its local header names a different file (${JSON.stringify(localName.toString('utf8'))})`, entry.name);
    if (local.method !== entry.method || (local.flags & FLAG_DESCRIPTOR) !== (entry.flags & FLAG_DESCRIPTOR)) {
      throw new ZipRefusal(`${where}: its local header disagrees with the central directory`, entry.name);
    }
    if (!(entry.flags & FLAG_DESCRIPTOR) && (local.crc32 !== entry.crc32 || local.compressedSize !== entry.compressedSize || local.size !== entry.size)) {
      throw new ZipRefusal(`${where}: its local header declares other sizes than the central directory`, entry.name);
    }
    entry.dataOffset = entry.localOffset + 30 + local.nameLength + local.extraLength;
    expected = entry.dataOffset + entry.compressedSize;
    if (expected > cdOffset) throw new ZipRefusal(`${where}: its data runs into the central directory`, entry.name);
    if (entry.flags & FLAG_DESCRIPTOR) {
      const signed = expected + 4 <= cdOffset && readAt(fd, expected, 4).readUInt32LE(0) === DESCRIPTOR_SIGNATURE;
      expected += signed ? 16 : 12;
    }
  }
  if (expected !== cdOffset) throw new ZipRefusal(`there are ${cdOffset - expected} unlisted bytes before the central directory (a hidden entry?)`);
}
