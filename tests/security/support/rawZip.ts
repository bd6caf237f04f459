import zlib from 'node:zlib';

/**
 * A minimal zip writer for hostile packages: it writes whatever it is given (duplicate
 * names, `..`, NUL, folder entries with data), which well-behaved zip libraries refuse or
 * silently fix. Entries are stored or deflated; every name is flagged UTF-8.
 */
export interface RawEntry {
  name: string;
  data: Uint8Array;
  deflate?: boolean;
  /** The central directory's external attributes (a Unix mode in the upper 16 bits, as `zip --symlinks` writes); 0 when absent. */
  attributes?: number;
}

export function rawZip(entries: readonly RawEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const body = entry.deflate === false ? Buffer.from(entry.data) : zlib.deflateRawSync(entry.data);
    const method = entry.deflate === false ? 0 : 8;
    const crc = zlib.crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(entry.data.byteLength, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    // Made by Unix (3) when a Unix mode is given, as Info-ZIP writes it.
    central.writeUInt16LE(entry.attributes ? 0x031e : 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(entry.data.byteLength, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((entry.attributes ?? 0) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/**
 * Rewrites the uncompressed size an entry declares, in its central and its local header
 * (a lying zip: small on paper, huge when inflated).
 */
export function patchDeclaredSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const buf = Buffer.from(zip);
  const endAt = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = buf.readUInt16LE(endAt + 10);
  let p = buf.readUInt32LE(endAt + 16);
  for (let i = 0; i < count; i++) {
    const nameLength = buf.readUInt16LE(p + 28);
    const entryName = buf.subarray(p + 46, p + 46 + nameLength).toString('utf8');
    if (entryName === name) {
      buf.writeUInt32LE(size, p + 24);
      buf.writeUInt32LE(size, buf.readUInt32LE(p + 42) + 22);
      return new Uint8Array(buf);
    }
    p += 46 + nameLength + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  throw new Error(`no entry ${name}`);
}
