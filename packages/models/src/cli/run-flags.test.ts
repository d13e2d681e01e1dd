import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatField, parseRunFlags } from "./run-flags.js";

describe("parseRunFlags", () => {
  it("reads every flag of ollama run", () => {
    const f = parseRunFlags([
      "m",
      "tell",
      "me",
      "--format",
      "json",
      "--keepalive",
      "1h30m",
      "--verbose",
      "--insecure",
      "--nowordwrap",
      "--hidethinking",
      "--think=high",
    ]);
    assert.deepEqual(f, {
      model: "m",
      words: ["tell", "me"],
      format: "json",
      keepAlive: "1h30m",
      verbose: true,
      insecure: true,
      noWordWrap: true,
      hideThinking: true,
      think: "high",
    });
  });

  it("takes --think alone as true without swallowing the next word", () => {
    const f = parseRunFlags(["m", "--think", "hello"]);
    assert.deepEqual([f.think, f.words], [true, ["hello"]]);
    assert.equal(parseRunFlags(["m", "--think=false"]).think, false);
    assert.equal(parseRunFlags(["m", "--think=true"]).think, true);
    assert.equal(parseRunFlags(["m"]).think, undefined, "absent: the server decides");
    assert.deepEqual(parseRunFlags(["m", "--", "--think"]).words, ["--think"]);
  });

  it("rejects bad values, naming the flag", () => {
    for (const [args, flag] of [
      [["m", "--think=maybe"], /--think: "maybe"/],
      [["m", "--think=HIGH"], /--think: "HIGH"/],
      [["m", "--think=constructor"], /--think/],
      [["m", "--keepalive", "soon"], /--keepalive: "soon"/],
      [["m", "--keepalive", "5"], /--keepalive: "5"/],
      [["m", "--format", "xml"], /--format: "xml"/],
      [["m", "--format", "[1]"], /--format/],
      [["m", "--nowordwrap=yes"], /nowordwrap/],
      [["m", "--bogus"], /bogus/],
      [[], /MODEL/],
    ] as const) {
      assert.throws(() => parseRunFlags(args), flag, args.join(" "));
    }
  });

  it("sends a JSON schema format as the object", () => {
    assert.deepEqual(formatField('{"type":"object"}'), { type: "object" });
    assert.equal(formatField("json"), "json");
    assert.equal(formatField(undefined), undefined);
  });
});
