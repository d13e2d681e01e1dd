// Tests of the demo vocabulary: pieces, scores and word lookup.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  byteVocabulary,
  SPACE_PIECE,
  stemOf,
  type TokenRole,
  wordVocabulary,
} from "./demo-vocabulary.js";

describe("demo vocabulary", () => {
  const vocab = wordVocabulary();
  const roleOf = (token: string): TokenRole | undefined => vocab.roles[vocab.tokens.indexOf(token)];

  it("has a byte-level part: control tokens, 256 byte tokens, and the space piece", () => {
    const v = byteVocabulary();
    assert.equal(v.tokens.length, 260);
    assert.deepEqual(v.tokens.slice(0, 4), ["<unk>", "<s>", "</s>", "<0x00>"]);
    assert.equal(v.tokens[3 + 0x41], "<0x41>");
    assert.equal(v.types.filter((t) => t === 6).length, 256);
    assert.deepEqual(vocab.tokens.slice(0, 260), v.tokens, "the word vocabulary starts with it");
  });

  it("holds words as whole tokens in lower case and capitalised, sharing a stem", () => {
    assert.deepEqual(roleOf(`${SPACE_PIECE}whale`), { kind: "word", stem: "whal" });
    assert.deepEqual(roleOf(`${SPACE_PIECE}Whale`), { kind: "word", stem: "whal" });
    assert.deepEqual(roleOf(`${SPACE_PIECE}whaling`), { kind: "word", stem: "whal" });
    assert.deepEqual(roleOf(`${SPACE_PIECE}the`), { kind: "stop" });
    assert.deepEqual(roleOf(`${SPACE_PIECE}The`), { kind: "stop" });
    assert.deepEqual(roleOf(`${SPACE_PIECE}wha`), { kind: "piece" });
    assert.equal(new Set(vocab.tokens).size, vocab.tokens.length, "no token twice");
    assert.equal(vocab.tokens.length, vocab.types.length);
    assert.equal(vocab.tokens.length, vocab.roles.length);
  });

  it("holds every prefix of a word token, so llama.cpp's SPM merges can reach it", () => {
    const tokens = new Set(vocab.tokens);
    for (const token of vocab.tokens.slice(260)) {
      for (let end = 2; end < token.length; end++) {
        assert.ok(tokens.has(token.slice(0, end)), `${token}: prefix ${token.slice(0, end)}`);
      }
    }
  });

  it("stems by cutting one common suffix, a final e and a doubled letter", () => {
    const cases: Array<[string, string]> = [
      ["whale", "whal"],
      ["whales", "whal"],
      ["whaling", "whal"],
      ["Hunts", "hunt"],
      ["hunted", "hunt"],
      ["running", "run"],
      ["studies", "study"],
      ["glass", "glas"],
      ["glasses", "glas"],
      ["sea", "sea"],
      ["seas", "sea"],
      ["seed", "seed"],
      ["king", "king"],
    ];
    for (const [word, stem] of cases) assert.equal(stemOf(word), stem, word);
  });
});
