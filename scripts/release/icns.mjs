// The Apple icon image format (.icns) with PNG payloads: an 8-byte header ('icns', total
// length), then one entry per size (4-byte type, 4-byte length including these 8 bytes,
// the PNG). macOS has read PNG in these entry types since 10.7.

/** Entry type and the pixel size of its PNG (a @2x type holds twice its point size). */
export const ICNS_TYPES = [
  { type: 'icp4', pixels: 16 },
  { type: 'icp5', pixels: 32 },
  { type: 'ic11', pixels: 32 }, // 16@2x
  { type: 'ic12', pixels: 64 }, // 32@2x
  { type: 'ic07', pixels: 128 },
  { type: 'ic13', pixels: 256 }, // 128@2x
  { type: 'ic08', pixels: 256 },
  { type: 'ic14', pixels: 512 }, // 256@2x
  { type: 'ic09', pixels: 512 },
  { type: 'ic10', pixels: 1024 }, // 512@2x
];

export function icnsFromPngs(entries) {
  const parts = entries.map(({ type, png }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(8);
  header.write('icns', 0, 'ascii');
  header.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([header, body]);
}

/** The entries of an .icns file: type and payload (for the tests and verify-release). */
export function readIcns(buffer) {
  if (buffer.toString('ascii', 0, 4) !== 'icns' || buffer.readUInt32BE(4) !== buffer.length) throw new Error('not an icns file (bad header or length)');
  const entries = [];
  for (let offset = 8; offset < buffer.length; ) {
    const type = buffer.toString('ascii', offset, offset + 4);
    const length = buffer.readUInt32BE(offset + 4);
    if (length < 8 || offset + length > buffer.length) throw new Error(`icns entry ${type} at ${offset} overruns the file`);
    entries.push({ type, data: buffer.subarray(offset + 8, offset + length) });
    offset += length;
  }
  return entries;
}
