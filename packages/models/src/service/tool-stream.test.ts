// Tests of streaming tool-call detection: content released as soon as it is known.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ToolCall } from "../api/types.js";
import { ToolCallStream } from "./tool-stream.js";

const TOOLS = [{ type: "function", function: { name: "get_weather" } }];

/** Feeds pieces one by one; records what each piece released. */
function feed(pieces: string[]) {
  const s = new ToolCallStream(TOOLS);
  const steps: Array<{ content: string; calls: ToolCall[] }> = pieces.map((p) => s.push(p));
  steps.push(s.finish());
  return steps;
}

describe("tool calls found while the answer streams", () => {
  it("releases plain text at once", () => {
    const steps = feed(["Hello", " there", "!"]);
    assert.deepEqual(
      steps.map((s) => s.content),
      ["Hello", " there", "!", ""],
    );
  });

  it("holds a tag from its start and gives the call when the block closes", () => {
    const steps = feed([
      "Let me check. <tool",
      '_call>{"name": "get_weather", ',
      '"arguments": {"city": "Paris"}}</tool_call>',
      " Done.",
    ]);
    assert.deepEqual(
      steps.map((s) => s.content),
      ["Let me check. ", "", "", " Done.", ""],
    );
    assert.deepEqual(steps[2]?.calls, [
      { function: { index: 0, name: "get_weather", arguments: { city: "Paris" } } },
    ]);
  });

  it("gives a block naming no declared tool back as text", () => {
    const block = '<tool_call>{"name": "other", "arguments": {}}</tool_call>';
    const steps = feed([block, " x"]);
    assert.equal(steps.map((s) => s.content).join(""), `${block} x`);
    assert.equal(steps.flatMap((s) => s.calls).length, 0);
  });

  it("holds an answer that starts as JSON to the end, then parses it whole", () => {
    const steps = feed([' {"name": "get_weather",', ' "arguments": {"city": "Oslo"}}']);
    assert.deepEqual(
      steps.map((s) => s.content),
      ["", "", ""],
    );
    assert.equal(steps[2]?.calls[0]?.function.name, "get_weather");
  });

  it("releases a tag start that turns out not to be one", () => {
    const steps = feed(["a <tool", "box> b"]);
    assert.equal(steps.map((s) => s.content).join(""), "a <toolbox> b");
    assert.equal(steps[0]?.content, "a ");
  });
});
