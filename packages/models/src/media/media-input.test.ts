// Tests of the images field: strict base64, formats told by content, checks against the model.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Capability } from "../api/types.js";
import type { StoredModel } from "../store/stored-model.js";
import { checkMediaForModel, decodeImagesField } from "./media-input.js";
import { sniffMedia } from "./media-kind.js";
import { decodeStrictBase64 } from "./strict-base64.js";
import { b64, JPEG, MP3_FRAME, MP3_ID3, PNG, WAV, WEBP } from "./test-media.js";

/** A stored model with only what the media check reads. */
function modelWith(capabilities: Capability[]): StoredModel {
  return { display: "m:latest", facts: { capabilities } } as unknown as StoredModel;
}

describe("strict base64 (Go's StdEncoding)", () => {
  it("decodes padded standard base64, skipping line breaks", () => {
    assert.deepEqual(decodeStrictBase64("aGVsbG8="), {
      bytes: new Uint8Array(Buffer.from("hello")),
    });
    assert.deepEqual(decodeStrictBase64("aGVs\r\nbG8="), {
      bytes: new Uint8Array(Buffer.from("hello")),
    });
    assert.deepEqual(decodeStrictBase64(""), { bytes: new Uint8Array() });
  });

  it("refuses what Node's decoder would let through, naming the byte", () => {
    assert.deepEqual(decodeStrictBase64("aGV*bG8="), {
      error: "illegal base64 data at input byte 3",
    });
    assert.deepEqual(decodeStrictBase64("aGVsbG8"), {
      error: "illegal base64 data at input byte 7",
    });
    assert.deepEqual(decodeStrictBase64("a-_sbG8="), {
      error: "illegal base64 data at input byte 1",
    });
    assert.deepEqual(decodeStrictBase64("aGVsbG8=aGVs"), {
      error: "illegal base64 data at input byte 8",
    });
    assert.deepEqual(decodeStrictBase64("a==="), { error: "illegal base64 data at input byte 1" });
  });
});

describe("media formats by content", () => {
  it("tells PNG, JPEG, WebP, WAV and MP3 (ID3 or frame sync) apart", () => {
    assert.equal(sniffMedia(PNG), "png");
    assert.equal(sniffMedia(JPEG), "jpeg");
    assert.equal(sniffMedia(WEBP), "webp");
    assert.equal(sniffMedia(WAV), "wav");
    assert.equal(sniffMedia(MP3_ID3), "mp3");
    assert.equal(sniffMedia(MP3_FRAME), "mp3");
  });

  it("knows nothing else: text, other RIFF, reserved MPEG headers, nothing", () => {
    assert.equal(sniffMedia(Buffer.from("hello world")), undefined);
    assert.equal(sniffMedia(Buffer.from("RIFF\0\0\0\0AVI LIST")), undefined);
    assert.equal(sniffMedia(Buffer.from("ffffffff", "hex")), undefined);
    assert.equal(sniffMedia(Buffer.from("ffe9", "hex")), undefined);
    assert.equal(sniffMedia(new Uint8Array()), undefined);
  });
});

describe("the images field", () => {
  it("decodes an array of base64 strings; absent is undefined", () => {
    assert.equal(decodeImagesField(undefined, "images"), undefined);
    assert.equal(decodeImagesField(null, "images"), undefined);
    assert.deepEqual(decodeImagesField([b64(PNG)], "images"), [new Uint8Array(PNG)]);
  });

  it("answers 400 naming the field or the item", () => {
    const bad = (value: unknown, re: RegExp) =>
      assert.throws(
        () => decodeImagesField(value, "messages[1].images"),
        (e: { code?: string; message?: string }) =>
          e.code === "bad_request" && re.test(e.message ?? ""),
      );
    bad("aGVsbG8=", /^field "messages\[1\]\.images" must be an array of base64 strings$/);
    bad([1], /must be an array of base64 strings/);
    bad(
      [b64(PNG), "aGV*"],
      /^messages\[1\]\.images\[1\] is not valid base64: illegal base64 data at input byte 3$/,
    );
    bad(
      [`data:image/png;base64,${b64(PNG)}`],
      /^messages\[1\]\.images\[0\] is a data URL; send the base64 data alone/,
    );
  });
});

describe("media against the model", () => {
  const item = (bytes: Uint8Array, label = "images[0]") => [{ bytes, label }];
  const refuses = (caps: Capability[], bytes: Uint8Array, code: string, re: RegExp) =>
    assert.throws(
      () => checkMediaForModel(modelWith(caps), item(bytes)),
      (e: { code?: string; message?: string }) => e.code === code && re.test(e.message ?? ""),
    );

  it("answers Ollama's message for a model without a projector, whatever the bytes", () => {
    refuses(["completion"], PNG, "unsupported_capability", /^m:latest does not support vision$/);
    refuses(["completion"], Buffer.from("x"), "unsupported_capability", /does not support vision/);
    checkMediaForModel(modelWith(["completion"]), []);
  });

  it("refuses bytes of no known format, naming the item and its first bytes", () => {
    refuses(
      ["completion", "vision"],
      Buffer.from("hello"),
      "bad_request",
      /^images\[0\] is neither a PNG, JPEG or WebP image nor WAV or MP3 audio \(first bytes 68 65 6c 6c 6f\)$/,
    );
    refuses(["completion", "vision"], new Uint8Array(), "bad_request", /\(no bytes\)$/);
  });

  it("needs a vision encoder for images and an audio encoder for audio", () => {
    for (const image of [PNG, JPEG, WEBP]) checkMediaForModel(modelWith(["vision"]), item(image));
    for (const clip of [WAV, MP3_ID3]) checkMediaForModel(modelWith(["audio"]), item(clip));
    refuses(
      ["completion", "vision"],
      WAV,
      "unsupported_capability",
      /^m:latest does not support audio$/,
    );
    refuses(
      ["completion", "audio"],
      JPEG,
      "unsupported_capability",
      /^m:latest does not support vision$/,
    );
  });
});
