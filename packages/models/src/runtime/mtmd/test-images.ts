/**
 * Tiny PNG and JPEG files written from code, for tests that need real image bytes without
 * fixtures or ImageMagick. The JPEG is baseline with flat 8×8 blocks (every block one colour,
 * so only DC coefficients are coded) and minimal Huffman tables.
 */
import { crc32, deflateSync } from "node:zlib";

/** RGB pixels, row-major, 3 bytes each. */
export interface RgbImage {
  width: number;
  height: number;
  pixels: Uint8Array;
}

/** An image whose colour at (x, y) is `colour(x, y)`. */
export function rgbImage(
  width: number,
  height: number,
  colour: (x: number, y: number) => [number, number, number],
): RgbImage {
  const pixels = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels.set(colour(x, y), (y * width + x) * 3);
  }
  return { width, height, pixels };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0);
  return Buffer.concat([head, data, crc]);
}

/** A truecolour 8-bit PNG (no filtering). */
export function encodePng(img: RgbImage): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(img.width, 0);
  ihdr.writeUInt32BE(img.height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // depth 8, RGB, deflate, no filter method, no interlace
  const rows = Buffer.alloc((img.width * 3 + 1) * img.height);
  for (let y = 0; y < img.height; y++) {
    const row = y * (img.width * 3 + 1);
    rows[row] = 0;
    rows.set(img.pixels.subarray(y * img.width * 3, (y + 1) * img.width * 3), row + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(rows)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Writes bits MSB first, stuffing a zero byte after each 0xFF as JPEG requires. */
class BitWriter {
  private readonly bytes: number[] = [];
  private acc = 0;
  private count = 0;

  write(value: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) {
      this.acc = (this.acc << 1) | ((value >> i) & 1);
      if (++this.count === 8) this.flushByte();
    }
  }

  private flushByte(): void {
    this.bytes.push(this.acc);
    if (this.acc === 0xff) this.bytes.push(0);
    this.acc = 0;
    this.count = 0;
  }

  /** Pads the last byte with one bits. */
  finish(): Buffer {
    while (this.count !== 0) this.write(1, 1);
    return Buffer.from(this.bytes);
  }
}

function segment(marker: number, body: number[]): Buffer {
  const len = body.length + 2;
  return Buffer.from([0xff, marker, len >> 8, len & 0xff, ...body]);
}

/** Quantisation step of every coefficient: a flat block's DC is then its level minus 128. */
const QUANT = 8;

/**
 * A baseline YCbCr JPEG of `img` (width and height multiples of 8), each 8×8 block flattened
 * to its mean colour. DC categories 0-11 get 4-bit codes; the only AC symbol is end-of-block.
 */
export function encodeBlockJpeg(img: RgbImage): Buffer {
  const { width, height, pixels } = img;
  if (width % 8 !== 0 || height % 8 !== 0)
    throw new RangeError("JPEG sides must be multiples of 8");
  const bits = new BitWriter();
  const previous = [0, 0, 0];
  for (let by = 0; by < height; by += 8) {
    for (let bx = 0; bx < width; bx += 8) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let y = by; y < by + 8; y++) {
        for (let x = bx; x < bx + 8; x++) {
          const i = (y * width + x) * 3;
          r += pixels[i] as number;
          g += pixels[i + 1] as number;
          b += pixels[i + 2] as number;
        }
      }
      [r, g, b] = [r / 64, g / 64, b / 64];
      const ycc = [
        0.299 * r + 0.587 * g + 0.114 * b,
        128 - 0.168736 * r - 0.331264 * g + 0.5 * b,
        128 + 0.5 * r - 0.418688 * g - 0.081312 * b,
      ];
      ycc.forEach((level, c) => {
        // A flat block's DC coefficient is 8 × (level − 128); quantised by QUANT.
        const dc = Math.round((8 * (level - 128)) / QUANT);
        const diff = dc - (previous[c] as number);
        previous[c] = dc;
        const magnitude = Math.abs(diff);
        const category = magnitude === 0 ? 0 : Math.floor(Math.log2(magnitude)) + 1;
        bits.write(category, 4);
        if (category > 0) bits.write(diff > 0 ? diff : diff + (1 << category) - 1, category);
        bits.write(0, 1); // end of block
      });
    }
  }
  const data = bits.finish();
  const dcBits = [0, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  const acBits = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xdb, [0, ...new Array(64).fill(QUANT)]),
    segment(0xc0, [
      8,
      height >> 8,
      height & 0xff,
      width >> 8,
      width & 0xff,
      3,
      1,
      0x11,
      0,
      2,
      0x11,
      0,
      3,
      0x11,
      0,
    ]),
    segment(0xc4, [0x00, ...dcBits, ...Array.from({ length: 12 }, (_, i) => i)]),
    segment(0xc4, [0x10, ...acBits, 0x00]),
    segment(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]),
    data,
    Buffer.from([0xff, 0xd9]),
  ]);
}
