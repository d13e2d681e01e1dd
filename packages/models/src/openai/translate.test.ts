// OpenAI request translation: content parts, tool results and sampling fields to native ones.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { nativeMessages, nativeOptions } from "./translate.js";

describe("OpenAI translation", () => {
  it("turns content parts into text and images, and tool results into named tool messages", () => {
    const msgs = nativeMessages([
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        ],
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: '{"a":1}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "42" },
    ]);
    assert.deepEqual(msgs[0], { role: "user", content: "look", images: ["AAAA"] });
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
