// `[img-N]` tags: replaced by the marker with their media in order; a missing index is a 400.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LlmsrvError } from "../../errors.js";
import { placeMedia } from "./media-tags.js";

const A = Uint8Array.of(1);
const B = Uint8Array.of(2);

describe("placeMedia", () => {
  it("replaces tags with the marker and lists the media they name, in prompt order", () => {
    const r = placeMedia("x [img-1] y [img-0] z [img-1]", [A, B], "<M>");
    assert.equal(r.text, "x <M> y <M> z <M>");
    assert.deepEqual(r.media, [B, A, B]);
  });

  it("defuses a marker the prompt itself contains", () => {
    const r = placeMedia("<M> [img-0]", [A], "<M>");
    assert.equal(r.text, "< M> <M>");
    assert.deepEqual(r.media, [A]);
  });

  it("refuses a tag whose index has no media, naming it", () => {
    assert.throws(
      () => placeMedia("see [img-5]", [A], "<M>"),
      (e: unknown) =>
        e instanceof LlmsrvError &&
        e.code === "bad_request" &&
        /\[img-5\] refers to image 5, but the request has 1 image/.test(e.message),
    );
  });
});
