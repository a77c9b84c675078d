/**
 * Pixel dimensions read from a PNG or JPEG header, without decoding the image: what decoding
 * would cost in memory is known before anything is decoded.
 */
export interface ImageSize {
  width: number;
  height: number;
}

/**
 * Largest logo, per side and in all: 4 million pixels (2048 × 2048, or 4096 × 1024), which decode
 * to 16 MiB of RGBA. A logo is printed 170 × 64 points wide; far fewer pixels already look sharp.
 */
export const MAX_LOGO_SIDE = 4096;
export const MAX_LOGO_PIXELS = 2048 * 2048;

export function imageSize(bytes: Uint8Array): ImageSize | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // PNG: the first chunk is IHDR, width and height at bytes 16 and 20.
  if (bytes.length >= 24 && bytes[0] === 0x89 && bytes[1] === 0x50 && String.fromCharCode(...bytes.subarray(12, 16)) === 'IHDR') {
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  // JPEG: walk the segments to the first start-of-frame marker.
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    let at = 2;
    while (at + 9 < bytes.length) {
      if (bytes[at] !== 0xff) return undefined;
      const marker = bytes[at + 1]!;
      if (marker === 0xff) {
        at += 1;
        continue;
      }
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        at += 2;
        continue;
      }
      const length = view.getUint16(at + 2);
      const startOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (startOfFrame) return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
      if (length < 2) return undefined;
      at += 2 + length;
    }
  }
  return undefined;
}

/** True when the image's header is readable and its decoded size within the logo limits. */
export function isDrawableLogo(bytes: Uint8Array): boolean {
  const size = imageSize(bytes);
  return (
    size !== undefined &&
    size.width > 0 &&
    size.height > 0 &&
    size.width <= MAX_LOGO_SIDE &&
    size.height <= MAX_LOGO_SIDE &&
    size.width * size.height <= MAX_LOGO_PIXELS
  );
}
