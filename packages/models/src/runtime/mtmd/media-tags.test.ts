// `[img-N]` tags: replaced by the marker with their media in order; a missing index is a 400.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LlmsrvError } from "../../errors.js";
import { placeMedia, withRequestIndex } from "./media-tags.js";

const A = Uint8Array.of(1);
const B = Uint8Array.of(2);

describe("placeMedia", () => {
  it("replaces tags with the marker and lists the media they name, in prompt order", () => {
    const r = placeMedia("x [img-1] y [img-0] z [img-1]", [A, B], "<M>");
    assert.equal(r.text, "x <M> y <M> z <M>");
    assert.deepEqual(r.media, [B, A, B]);
    assert.deepEqual(r.indexes, [1, 0, 1]);
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

  it("renames a placed item in an addon error to the request's index", () => {
    const { indexes } = placeMedia("[img-2] [img-0]", [A, B, A], "<M>");
    assert.equal(
      withRequestIndex("image 0 (27 bytes) is not an image", indexes),
      "image 2 (27 bytes) is not an image",
    );
    assert.equal(
      withRequestIndex("media 1 is audio of 1 sample(s)", indexes),
      "media 0 is audio of 1 sample(s)",
    );
    assert.equal(
      withRequestIndex("the media could not be preprocessed", indexes),
      "the media could not be preprocessed",
    );
    assert.equal(withRequestIndex("image 9 x", indexes), "image 9 x");
  });
});
