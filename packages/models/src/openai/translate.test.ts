// OpenAI request translation: content parts, tool results and sampling fields to native ones.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { b64, JPEG, MP3_ID3, PNG, WAV } from "../media/test-media.js";
import { nativeMessages, nativeOptions } from "./translate.js";

/** Asserts a 400 whose message matches `re`. */
function refuses(messages: unknown, re: RegExp): void {
  assert.throws(
    () => nativeMessages(messages),
    (e: { code?: string; message?: string }) =>
      e.code === "bad_request" && re.test(e.message ?? ""),
  );
}

describe("OpenAI translation", () => {
  it("turns content parts into text and images, and tool results into named tool messages", () => {
    const msgs = nativeMessages([
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${b64(PNG)}` } },
        ],
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: '{"a":1}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "42" },
    ]);
    assert.deepEqual(msgs[0], {
      role: "user",
      content: "look\n\n[img]",
      images: [new Uint8Array(PNG)],
    });
    assert.deepEqual(msgs[1]?.tool_calls, [{ function: { name: "f", arguments: { a: 1 } } }]);
    assert.deepEqual(msgs[2], { role: "tool", content: "42", tool_name: "f" });
    assert.throws(
      () =>
        nativeMessages([
          { role: "assistant", tool_calls: [{ function: { name: "f", arguments: "{bad" } }] },
        ]),
      /invalid tool call arguments/,
    );
  });

  it("decodes image_url data URLs and input_audio parts in order, each marked where it stood", () => {
    const [msg] = nativeMessages([
      {
        role: "user",
        content: [
          { type: "image_url", image_url: `data:image/jpeg;base64,${b64(JPEG)}` },
          { type: "text", text: "compare with" },
          { type: "image_url", image_url: { url: `data:;base64,${b64(PNG)}` } },
          { type: "input_audio", input_audio: { data: b64(WAV), format: "wav" } },
          { type: "input_audio", input_audio: { data: b64(MP3_ID3), format: "mp3" } },
        ],
      },
    ]);
    assert.equal(msg?.content, "[img]\n\ncompare with\n\n[img]\n\n[img]\n\n[img]");
    assert.deepEqual(
      msg?.images?.map((b) => Buffer.from(b).subarray(0, 3).toString("hex")),
      ["ffd8ff", "89504e", "524946", "494433"],
    );
  });

  it("refuses image URLs to download, other data URLs, bad base64 and mismatched content", () => {
    const image = (url: string) => [
      {
        role: "user",
        content: [
          { type: "text", text: "x" },
          { type: "image_url", image_url: { url } },
        ],
      },
    ];
    refuses(
      image("https://example.com/cat.png"),
      /^image URLs are not currently supported, please use base64 encoded data instead$/,
    );
    refuses(image("http://example.com/cat.png"), /image URLs are not currently supported/);
    refuses(
      image(`data:image/gif;base64,${b64(PNG)}`),
      /^invalid image input: messages\[0\]\.content\[1\] must be a data URL of a PNG, JPEG or WebP image/,
    );
    refuses(
      image("data:image/png;base64,iVBO*"),
      /^invalid image input: messages\[0\]\.content\[1\] is not valid base64: illegal base64 data at input byte 4$/,
    );
    refuses(
      image(`data:image/png;base64,${b64(WAV)}`),
      /^invalid image input: messages\[0\]\.content\[1\] is not a PNG, JPEG or WebP image \(first bytes 52 49 46 46/,
    );
  });

  it("refuses input_audio without data, of another format, or not audio", () => {
    const audio = (input_audio: unknown) => [
      { role: "user", content: [{ type: "input_audio", input_audio }] },
    ];
    refuses(
      audio({ format: "wav" }),
      /^messages\[0\]\.content\[0\]: input_audio needs base64 data$/,
    );
    refuses(
      audio({ data: b64(WAV), format: "flac" }),
      /^invalid audio input: messages\[0\]\.content\[0\] has format "flac"; expected "wav" or "mp3"$/,
    );
    refuses(
      audio({ data: b64(PNG), format: "wav" }),
      /^invalid audio input: messages\[0\]\.content\[0\] is not WAV or MP3 audio \(first bytes 89 50/,
    );
  });

  it("maps sampling fields, with OpenAI's defaults of 1.0 for temperature and top_p", () => {
    assert.deepEqual(nativeOptions({}), { temperature: 1, top_p: 1 });
    assert.deepEqual(nativeOptions({ temperature: 0.2, max_tokens: 5, seed: 3, stop: "x" }), {
      temperature: 0.2,
      top_p: 1,
      num_predict: 5,
      seed: 3,
      stop: ["x"],
    });
    assert.throws(() => nativeOptions({ temperature: "hot" }), /temperature must be a number/);
  });
});
