// WebP images reach mtmd as PNG; other media pass unchanged; a broken WebP is a named 400.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import sharp from "sharp";
import { LlmsrvError } from "../../errors.js";
import { decodableMedia } from "./decodable-media.js";
import { encodePng, rgbImage } from "./test-images.js";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

async function webp(width: number, height: number): Promise<Uint8Array> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 37) % 256;
  return new Uint8Array(
    await sharp(raw, { raw: { width, height, channels: 3 } })
      .webp({ lossless: true })
      .toBuffer(),
  );
}

describe("decodableMedia", () => {
  it("re-encodes a WebP as a PNG of the same size and pixels", async () => {
    const source = await webp(24, 16);
    const [png] = await decodableMedia([source]);
    assert.ok(png);
    assert.deepEqual([...png.subarray(0, 8)], PNG_SIGNATURE);
    const a = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    const b = await sharp(source).raw().toBuffer({ resolveWithObject: true });
    assert.deepEqual([a.info.width, a.info.height], [24, 16]);
    assert.ok(a.data.equals(b.data));
  });

  it("passes PNG, JPEG-like and audio bytes through untouched, keeping their order", async () => {
    const png = encodePng(rgbImage(8, 8, () => [1, 2, 3]));
    const wav = new TextEncoder().encode("RIFF\0\0\0\0WAVEfmt ");
    const out = await decodableMedia([png, await webp(8, 8), wav]);
    assert.equal(out.length, 3);
    assert.equal(out[0], png);
    assert.equal(out[2], wav);
    assert.deepEqual([...(out[1] as Uint8Array).subarray(0, 8)], PNG_SIGNATURE);
  });

  it("answers 400 naming the image for a WebP that does not decode", async () => {
    const broken = new TextEncoder().encode("RIFF\x20\0\0\0WEBPVP8 \x14\0\0\0garbage-garbage-gar");
    const png = encodePng(rgbImage(8, 8, () => [1, 2, 3]));
    await assert.rejects(decodableMedia([png, broken]), (e: unknown) => {
      assert.ok(e instanceof LlmsrvError);
      assert.equal(e.code, "bad_request");
      assert.match(e.message, /^image 1 is not a decodable WebP: /);
      return true;
    });
  });
});
