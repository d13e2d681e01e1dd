import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { blockStringValue, describeToken, Lexer, type Token } from "./lexer.js";

function tokens(input: string): Token[] {
  const lexer = new Lexer(input);
  const out: Token[] = [];
  for (;;) {
    const { token, error } = lexer.readToken();
    if (error) throw error;
    out.push(token);
    if (token.kind === "<EOF>") return out;
  }
}

describe("GraphQL lexer", () => {
  test("skips whitespace, commas and comments and counts columns in code points", () => {
    const [str, name] = tokens('# \u{1F600} comment\r\n  "\u{1F600}", name') as Token[];
    assert.deepEqual(str, { kind: "String", value: "\u{1F600}", pos: { line: 2, column: 4 } });
    assert.deepEqual(name, { kind: "Name", value: "name", pos: { line: 2, column: 8 } });
  });

  test("reads names, numbers, punctuation and decoded strings", () => {
    const kinds = tokens('query { f(a: -1.5e3, b: 42, c: "x\\u00e5\\n") ... }').map(describeToken);
    assert.deepEqual(kinds, [
      'Name "query"',
      "{",
      'Name "f"',
      "(",
      'Name "a"',
      ":",
      'Float "-1.5e3"',
      'Name "b"',
      ":",
      'Int "42"',
      'Name "c"',
      ":",
      'String "xå\\n"',
      ")",
      "...",
      "}",
      "<EOF>",
    ]);
  });

  test("string tokens are positioned after their opening quotes", () => {
    const [s] = tokens('  "abc"');
    assert.deepEqual(s?.pos, { line: 1, column: 4 });
  });

  test("reports malformed numbers and strings with gqlparser's messages", () => {
    assert.throws(() => tokens("01"), {
      message: 'Invalid number, unexpected digit after 0: "1".',
    });
    assert.throws(() => tokens("1."), {
      message: "Invalid number, expected digit but got: <EOF>.",
    });
    assert.throws(() => tokens('"abc'), { message: "Unterminated string." });
    assert.throws(() => tokens("'a'"), { message: /did you mean to use a double quote/ });
    assert.throws(() => tokens("?"), { message: 'Cannot parse the unexpected character "?".' });
  });

  test("block strings drop common indentation and blank edge lines", () => {
    assert.equal(blockStringValue("\n    a\n      b\n    "), "a\n  b");
    const [block] = tokens('"""\n  one\n  \\""" two\n"""');
    assert.equal(block?.kind, "BlockString");
    assert.equal(block?.value, 'one\n""" two');
  });
});
