import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/**
 * A real RGB PNG drawn pixel by pixel: a blue-to-teal badge. `noise` fills the pixels with
 * incompressible bytes, to make an image of a given size on disk.
 */
export function makePng(width: number, height: number, options: { noise?: boolean } = {}): Buffer<ArrayBuffer> {
  const rows: Buffer[] = [];
  let seed = 0x2545f491;
  const random = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed & 0xff;
  };
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x += 1) {
      const at = 1 + x * 3;
      if (options.noise) {
        row[at] = random();
        row[at + 1] = random();
        row[at + 2] = random();
        continue;
      }
      const inside = Math.hypot(x - width / 4, y - height / 2) < height * 0.4;
      const t = x / Math.max(1, width - 1);
      row[at] = inside ? 255 : Math.round(29 + t * 10);
      row[at + 1] = inside ? 255 : Math.round(78 + t * 100);
      row[at + 2] = inside ? 255 : Math.round(216 - t * 60);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: options.noise ? 0 : 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  // Backed by a plain ArrayBuffer, so it can go straight into a Blob or fetch body.
  return Buffer.from(png);
}
