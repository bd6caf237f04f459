import zlib from 'node:zlib';

/**
 * Pixel comparison of two PNGs, for figures that were recomputed but not byte-identical
 * (a different matplotlib or FreeType draws the same plot a few anti-aliased pixels
 * apart). Decodes the PNGs matplotlib and R write: 8-bit grey, grey+alpha, RGB, RGBA or
 * palette, not interlaced. Anything else is reported as not comparable, with the reason.
 */

export interface DecodedPng {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel. */
  rgba: Uint8Array;
}

export interface PixelDifference {
  width: number;
  height: number;
  /** Pixels where some channel differs by more than `channelTolerance`. */
  differingPixels: number;
  fraction: number;
  maxChannelDelta: number;
  /** The box holding every differing pixel, or null when none differs. */
  box: { x: number; y: number; width: number; height: number } | null;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

export class PngDecodeError extends Error {}

export function decodePng(bytes: Uint8Array): DecodedPng {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 8 || !buf.subarray(0, 8).equals(SIGNATURE)) throw new PngDecodeError('not a PNG file (bad signature)');
  let offset = 8;
  let width = 0;
  let height = 0;
  let colorType = -1;
  let palette: Buffer | null = null;
  let transparency: Buffer | null = null;
  const data: Buffer[] = [];
  while (offset + 8 <= buf.length) {
    const length = buf.readUInt32BE(offset);
    const type = buf.toString('latin1', offset + 4, offset + 8);
    const body = buf.subarray(offset + 8, offset + 8 + length);
    offset += 12 + length;
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const depth = body[8]!;
      colorType = body[9]!;
      if (depth !== 8) throw new PngDecodeError(`bit depth ${depth} is not supported (only 8-bit PNGs are compared)`);
      if (body[12] !== 0) throw new PngDecodeError('interlaced PNGs are not supported');
      if (!(colorType in CHANNELS)) throw new PngDecodeError(`colour type ${colorType} is unknown`);
    } else if (type === 'PLTE') palette = body;
    else if (type === 'tRNS') transparency = body;
    else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
  }
  if (!width || !height) throw new PngDecodeError('no image header (IHDR)');
  if (width * height > 100_000_000) throw new PngDecodeError(`${width}x${height} is too large to compare`);
  const channels = CHANNELS[colorType]!;
  const stride = width * channels;
  let raw: Buffer;
  try {
    raw = zlib.inflateSync(Buffer.concat(data), { maxOutputLength: (stride + 1) * height });
  } catch (error) {
    throw new PngDecodeError(`its image data does not inflate (${(error as Error).message})`);
  }
  if (raw.length !== (stride + 1) * height) throw new PngDecodeError(`its image data has ${raw.length} bytes, not ${(stride + 1) * height}`);
  const pixels = unfilter(raw, stride, height, channels);
  return { width, height, rgba: toRgba(pixels, width * height, colorType, palette, transparency) };
}

/** Undoes the per-row PNG filters (None, Sub, Up, Average, Paeth). */
function unfilter(raw: Buffer, stride: number, height: number, bpp: number): Uint8Array {
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = y * stride;
    const prev = row - stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[row + x - bpp]! : 0;
      const b = y > 0 ? out[prev + x]! : 0;
      const c = y > 0 && x >= bpp ? out[prev + x - bpp]! : 0;
      let predictor = 0;
      if (filter === 1) predictor = a;
      else if (filter === 2) predictor = b;
      else if (filter === 3) predictor = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else if (filter !== 0) throw new PngDecodeError(`row ${y} has an unknown filter ${filter}`);
      out[row + x] = (line[x]! + predictor) & 0xff;
    }
  }
  return out;
}

function toRgba(pixels: Uint8Array, count: number, colorType: number, palette: Buffer | null, transparency: Buffer | null): Uint8Array {
  const rgba = new Uint8Array(count * 4);
  for (let i = 0; i < count; i++) {
    const o = i * 4;
    if (colorType === 6) rgba.set(pixels.subarray(o, o + 4), o);
    else if (colorType === 2) rgba.set([pixels[i * 3]!, pixels[i * 3 + 1]!, pixels[i * 3 + 2]!, 255], o);
    else if (colorType === 0) rgba.set([pixels[i]!, pixels[i]!, pixels[i]!, 255], o);
    else if (colorType === 4) rgba.set([pixels[i * 2]!, pixels[i * 2]!, pixels[i * 2]!, pixels[i * 2 + 1]!], o);
    else {
      const index = pixels[i]!;
      if (!palette || index * 3 + 2 >= palette.length) throw new PngDecodeError(`palette index ${index} is outside the palette`);
      rgba.set([palette[index * 3]!, palette[index * 3 + 1]!, palette[index * 3 + 2]!, transparency?.[index] ?? 255], o);
    }
  }
  return rgba;
}

/**
 * How two PNGs differ pixel by pixel. A pixel differs when some RGBA channel differs by
 * more than `channelTolerance` (anti-aliasing noise stays under it). Throws PngDecodeError
 * when either cannot be decoded, and a plain Error naming both sizes when they differ.
 */
export function comparePngs(recorded: Uint8Array, recomputed: Uint8Array, channelTolerance = 8): PixelDifference {
  const a = decodePng(recorded);
  const b = decodePng(recomputed);
  if (a.width !== b.width || a.height !== b.height) throw new Error(`the recomputed figure is ${b.width}x${b.height} pixels, the recorded one ${a.width}x${a.height}`);
  let differing = 0;
  let maxDelta = 0;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -1;
  let y1 = -1;
  for (let i = 0; i < a.width * a.height; i++) {
    let delta = 0;
    for (let c = 0; c < 4; c++) delta = Math.max(delta, Math.abs(a.rgba[i * 4 + c]! - b.rgba[i * 4 + c]!));
    maxDelta = Math.max(maxDelta, delta);
    if (delta <= channelTolerance) continue;
    differing++;
    const x = i % a.width;
    const y = Math.floor(i / a.width);
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  return {
    width: a.width,
    height: a.height,
    differingPixels: differing,
    fraction: differing / (a.width * a.height),
    maxChannelDelta: maxDelta,
    box: differing ? { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 } : null,
  };
}
