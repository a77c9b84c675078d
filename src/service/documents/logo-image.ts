import { constants, crc32, deflateSync, inflateSync } from 'node:zlib';
import { imageSize, MAX_LOGO_PIXELS, MAX_LOGO_SIDE } from './image-size.js';

/**
 * A logo decoded under limits, then stored in a form the PDF renderer can always draw. A PNG is
 * decoded whole (every chunk's CRC, the image data inflated no further than its pixels need, every
 * row's filter) and written again as a plain 8-bit RGB or RGBA PNG with nothing but its pixels. A
 * JPEG is checked segment by segment and kept as it came: the renderer embeds it without decoding.
 */
export class LogoImageError extends Error {}

export interface NormalizedLogo {
  contentType: 'image/png' | 'image/jpeg';
  content: Uint8Array;
  width: number;
  height: number;
}

/** Most bytes a PNG's image data may inflate to: the largest logo as 16-bit RGBA, with its rows' filter bytes. */
const MAX_INFLATED_BYTES = MAX_LOGO_PIXELS * 8 + 4096 * 2;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Validates and normalizes a logo; throws a `LogoImageError` saying what is wrong. */
export function normalizeLogo(bytes: Uint8Array): NormalizedLogo {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (data.subarray(0, 8).equals(PNG_SIGNATURE)) return normalizePng(data);
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return checkJpeg(data);
  throw new LogoImageError('must be a PNG or JPEG image');
}

/** The logo the renderer may draw: normalized, or `null` when it cannot be (stored before logos were checked). */
export function drawableLogo(bytes: Uint8Array | null | undefined): Uint8Array | null {
  if (!bytes || bytes.length === 0) return null;
  try {
    return normalizeLogo(bytes).content;
  } catch {
    return null;
  }
}

function checkSize(width: number, height: number): void {
  if (width === 0 || height === 0) throw new LogoImageError('has no pixels');
  if (width > MAX_LOGO_SIDE || height > MAX_LOGO_SIDE || width * height > MAX_LOGO_PIXELS) {
    throw new LogoImageError(`is ${width} × ${height} pixels: at most ${MAX_LOGO_PIXELS} pixels and ${MAX_LOGO_SIDE} per side are accepted`);
  }
}

interface Header {
  width: number;
  height: number;
  depth: number;
  colour: number;
}

/** Channels per colour type: grey, –, RGB, palette, grey + alpha, –, RGBA. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

function normalizePng(data: Buffer): NormalizedLogo {
  let at = 8;
  let header: Header | undefined;
  let palette: Buffer | undefined;
  let transparency: Buffer | undefined;
  const compressed: Buffer[] = [];
  let ended = false;
  while (!ended) {
    if (at + 12 > data.length) throw new LogoImageError('is a truncated PNG');
    const length = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > data.length) throw new LogoImageError('is a truncated PNG');
    const body = data.subarray(at + 8, at + 8 + length);
    if ((crc32(data.subarray(at + 4, at + 8 + length)) >>> 0) !== data.readUInt32BE(at + 8 + length)) {
      throw new LogoImageError(`is a damaged PNG (the ${type.replace(/[^A-Za-z]/g, '?')} chunk fails its checksum)`);
    }
    if (!header && type !== 'IHDR') throw new LogoImageError('is a PNG without its header');
    switch (type) {
      case 'IHDR': {
        if (length !== 13) throw new LogoImageError('is a PNG with a damaged header');
        header = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), depth: body[8]!, colour: body[9]! };
        if (!DEPTHS[header.colour]?.includes(header.depth) || body[10] !== 0 || body[11] !== 0) throw new LogoImageError('is a PNG of an unknown kind');
        if (body[12] !== 0) throw new LogoImageError('is an interlaced PNG: save it without interlacing');
        checkSize(header.width, header.height);
        break;
      }
      case 'PLTE':
        palette = body;
        break;
      case 'tRNS':
        transparency = body;
        break;
      case 'IDAT':
        compressed.push(body);
        break;
      case 'IEND':
        ended = true;
        break;
      default:
        // An unknown critical chunk (upper-case first letter) changes how the image is read.
        if (type.charCodeAt(0) < 0x61) throw new LogoImageError(`is a PNG with an unknown ${type.replace(/[^A-Za-z]/g, '?')} chunk`);
    }
    at += 12 + length;
  }
  if (!header || compressed.length === 0) throw new LogoImageError('is a PNG without image data');
  if (header.colour === 3 && (!palette || palette.length % 3 !== 0)) throw new LogoImageError('is a palette PNG without its palette');
  const channels = CHANNELS[header.colour]!;
  const rowBytes = Math.ceil((header.width * channels * header.depth) / 8);
  const expected = header.height * (rowBytes + 1);
  if (expected > MAX_INFLATED_BYTES) throw new LogoImageError(`decodes to more than ${MAX_INFLATED_BYTES} bytes`);
  let raw: Buffer;
  try {
    // Inflated no further than the image needs: a zip bomb stops at its first byte too many.
    raw = inflateSync(Buffer.concat(compressed), { maxOutputLength: expected + 1, finishFlush: constants.Z_SYNC_FLUSH });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new LogoImageError('is a damaged PNG (its image data inflates past its pixels)');
    throw new LogoImageError('is a damaged PNG (its image data does not decompress)');
  }
  if (raw.length !== expected) throw new LogoImageError(raw.length < expected ? 'is a truncated PNG (its image data ends early)' : 'is a damaged PNG (its image data is too long)');
  const rgba = toRgba(unfilter(raw, header, rowBytes, channels), header, rowBytes, palette, transparency);
  return { contentType: 'image/png', content: encodePng(header.width, header.height, rgba), width: header.width, height: header.height };
}

/** Undoes each row's filter in place; a filter byte other than 0–4 is damage. */
function unfilter(raw: Buffer, header: Header, rowBytes: number, channels: number): Buffer {
  const step = Math.max(1, (channels * header.depth) >> 3);
  const out = Buffer.alloc(header.height * rowBytes);
  for (let y = 0; y < header.height; y += 1) {
    const filter = raw[y * (rowBytes + 1)]!;
    if (filter > 4) throw new LogoImageError(`is a damaged PNG (row ${y + 1} has the unknown filter ${filter})`);
    const source = y * (rowBytes + 1) + 1;
    const row = y * rowBytes;
    const above = row - rowBytes;
    for (let x = 0; x < rowBytes; x += 1) {
      const a = x >= step ? out[row + x - step]! : 0;
      const b = y > 0 ? out[above + x]! : 0;
      const c = x >= step && y > 0 ? out[above + x - step]! : 0;
      let predicted = 0;
      if (filter === 1) predicted = a;
      else if (filter === 2) predicted = b;
      else if (filter === 3) predicted = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[row + x] = (raw[source + x]! + predicted) & 0xff;
    }
  }
  return out;
}

/** Every pixel as 8-bit RGBA. */
function toRgba(pixels: Buffer, header: Header, rowBytes: number, palette: Buffer | undefined, transparency: Buffer | undefined): Buffer {
  const { width, height, depth, colour } = header;
  const channels = CHANNELS[colour]!;
  const out = Buffer.alloc(width * height * 4);
  const max = (1 << Math.min(depth, 8)) - 1;
  /** Sample `i` of row `y`, scaled to 8 bits (16-bit samples keep their high byte). */
  const sample = (y: number, i: number): number => {
    const row = y * rowBytes;
    if (depth === 8) return pixels[row + i]!;
    if (depth === 16) return pixels[row + i * 2]!;
    const bit = i * depth;
    const value = (pixels[row + (bit >> 3)]! >> (8 - depth - (bit & 7))) & max;
    return colour === 3 ? value : Math.round((value * 255) / max);
  };
  const key = transparency && colour !== 3 ? [0, 2, 4].map((o) => (o + 1 < transparency.length ? transparency.readUInt16BE(o) : -1)) : undefined;
  const keyOf = (value: number) => (depth === 16 ? value * 257 : depth === 8 ? value : Math.round((value * max) / 255));
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const o = (y * width + x) * 4;
      const s = (c: number) => sample(y, x * channels + c);
      if (colour === 3) {
        const index = s(0);
        if (index * 3 + 2 >= palette!.length) throw new LogoImageError('is a damaged PNG (a pixel names a colour its palette lacks)');
        out[o] = palette![index * 3]!;
        out[o + 1] = palette![index * 3 + 1]!;
        out[o + 2] = palette![index * 3 + 2]!;
        out[o + 3] = transparency && index < transparency.length ? transparency[index]! : 255;
      } else if (colour === 0 || colour === 4) {
        const grey = s(0);
        out[o] = out[o + 1] = out[o + 2] = grey;
        out[o + 3] = colour === 4 ? s(1) : key && keyOf(grey) === key[0] ? 0 : 255;
      } else {
        out[o] = s(0);
        out[o + 1] = s(1);
        out[o + 2] = s(2);
        out[o + 3] = colour === 6 ? s(3) : key && keyOf(s(0)) === key[0] && keyOf(s(1)) === key[1] && keyOf(s(2)) === key[2] ? 0 : 255;
      }
    }
  }
  return out;
}

function chunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])) >>> 0);
  return Buffer.concat([head, body, crc]);
}

/** A plain PNG of the pixels: RGB when every pixel is opaque, else RGBA; no filters, nothing else. */
function encodePng(width: number, height: number, rgba: Buffer): Uint8Array {
  let opaque = true;
  for (let i = 3; i < rgba.length && opaque; i += 4) opaque = rgba[i] === 255;
  const channels = opaque ? 3 : 4;
  const raw = Buffer.alloc(height * (1 + width * channels));
  for (let y = 0; y < height; y += 1) {
    const row = y * (1 + width * channels);
    for (let x = 0; x < width; x += 1) {
      const from = (y * width + x) * 4;
      rgba.copy(raw, row + 1 + x * channels, from, from + channels);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = opaque ? 2 : 6;
  return new Uint8Array(Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]));
}

/**
 * A JPEG checked segment by segment up to its scan: a known frame (baseline, extended or
 * progressive, 1, 3 or 4 components of 8 bits) within the size limits, and an end marker.
 */
function checkJpeg(data: Buffer): NormalizedLogo {
  let at = 2;
  let frame: { width: number; height: number } | undefined;
  for (;;) {
    if (at + 4 > data.length || data[at] !== 0xff) throw new LogoImageError('is a damaged JPEG');
    const marker = data[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd9) throw new LogoImageError('is a JPEG without an image');
    const length = data.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > data.length) throw new LogoImageError('is a truncated JPEG');
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (marker > 0xc2) throw new LogoImageError('is a JPEG of a kind PDFs cannot show (lossless or arithmetic-coded)');
      const components = data[at + 9];
      if (data[at + 4] !== 8 || (components !== 1 && components !== 3 && components !== 4)) throw new LogoImageError('is a JPEG of an unknown kind');
      frame = { width: data.readUInt16BE(at + 7), height: data.readUInt16BE(at + 5) };
      checkSize(frame.width, frame.height);
    }
    if (marker === 0xda) break;
    at += 2 + length;
  }
  if (!frame) throw new LogoImageError('is a JPEG without its frame header');
  let end = data.length;
  while (end > 0 && data[end - 1] === 0) end -= 1;
  if (end < 2 || data[end - 2] !== 0xff || data[end - 1] !== 0xd9) throw new LogoImageError('is a truncated JPEG (it has no end marker)');
  const size = imageSize(data);
  if (!size) throw new LogoImageError('is a damaged JPEG');
  return { contentType: 'image/jpeg', content: new Uint8Array(data), width: frame.width, height: frame.height };
}
