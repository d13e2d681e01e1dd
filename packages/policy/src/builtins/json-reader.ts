/**
 * A JSON reader that builds Rego values directly: integers keep every digit (bigint beyond
 * the safe range), objects become RegoObjects. Errors read like Go's encoding/json.
 */

import { goQuote } from "@quintet/gostd/strconv";
import { SIMPLE_ESCAPES } from "../syntax/lexer.js";
import { parseNumber } from "../value/number.js";
import { RegoObject, type Value } from "../value/value.js";

/** A malformed JSON text, with Go's wording. */
export class JSONSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JSONSyntaxError";
  }
}

/** JSON nested deeper than the reader was told to accept. */
export class JSONDepthError extends JSONSyntaxError {
  constructor(readonly maxDepth: number) {
    super(`exceeded max depth of ${maxDepth}`);
    this.name = "JSONDepthError";
  }
}

/** Well-formed JSON holding a number no Rego value here can carry (beyond float range). */
export class JSONRangeError extends JSONSyntaxError {}

const LITERALS: [string, Value][] = [
  ["true", true],
  ["false", false],
  ["null", null],
];

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= "0" && c <= "9";
}

/** Go's quoteChar: a character in single quotes, escaped as strconv.Quote would. */
function quoteChar(ch: string): string {
  if (ch === "'") return "'\\''";
  if (ch === '"') return "'\"'";
  return `'${goQuote(ch).slice(1, -1)}'`;
}

/** An array or object being read: its elements so far (and, for an object, the next key). */
type Container = { items: Value[] } | { object: RegoObject; key: string };

class Reader {
  private i = 0;
  private rangeError: JSONRangeError | undefined;
  /** Arrays and objects open at the cursor: the reader recurses once per level. */
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  /** Counts one more level open; refuses to go past the maximum. */
  private enter(): void {
    if (++this.depth > this.maxDepth) throw new JSONDepthError(this.maxDepth);
  }

  document(): Value {
    const v = this.value("looking for beginning of value");
    this.skipSpace();
    if (this.i < this.text.length) throw this.unexpected("after top-level value");
    if (this.rangeError) throw this.rangeError;
    return v;
  }

  private skipSpace(): void {
    while (this.i < this.text.length && " \t\n\r".includes(this.text[this.i] as string)) this.i++;
  }

  /** Go's error for the character at `i` (or the end of input). */
  private unexpected(context: string, midToken = false): JSONSyntaxError {
    // Go feeds a space at the end of input: inside a token that space is the culprit.
    if (this.i >= this.text.length && !midToken)
      return new JSONSyntaxError("unexpected end of JSON input");
    // Go reports a byte: for a multi-byte character, its first UTF-8 byte as a Latin-1 rune.
    const ch =
      this.i >= this.text.length
        ? " "
        : String.fromCharCode(
            Buffer.from(this.text.slice(this.i, this.i + 2), "utf8")[0] as number,
          );
    return new JSONSyntaxError(`invalid character ${quoteChar(ch)} ${context}`);
  }

  /**
   * Reads one value. Arrays and objects are built on an explicit stack rather than by
   * recursion, so that the depth of the text never becomes the depth of the JS stack.
   */
  private value(context: string): Value {
    const open: Container[] = [];
    let ctx = context;
    for (;;) {
      let v = this.start(open, ctx);
      if (v === undefined) continue;
      // Hand the finished value to the containers it completes.
      for (;;) {
        const top = open[open.length - 1];
        if (top === undefined) return v;
        const done = this.add(top, v);
        if (done === undefined) break;
        open.pop();
        this.depth--;
        v = done;
      }
      ctx = "looking for beginning of value";
    }
  }

  /** A scalar or empty container at the cursor; undefined after opening a container. */
  private start(open: Container[], context: string): Value | undefined {
    this.skipSpace();
    const c = this.text[this.i];
    if (c === "[" || c === "{") {
      this.i++;
      this.enter();
      this.skipSpace();
      if (this.text[this.i] === (c === "[" ? "]" : "}")) {
        this.i++;
        this.depth--;
        return c === "[" ? [] : new RegoObject();
      }
      open.push(c === "[" ? { items: [] } : { object: new RegoObject(), key: this.key() });
      return undefined;
    }
    return this.scalar(context);
  }

  /** Adds `v` to the container; its finished value when that closes it, else undefined. */
  private add(top: Container, v: Value): Value | undefined {
    this.skipSpace();
    const c = this.text[this.i];
    if ("items" in top) {
      top.items.push(v);
      this.i += c === "," || c === "]" ? 1 : 0;
      if (c === "]") return top.items;
      if (c !== ",") throw this.unexpected("after array element");
      return undefined;
    }
    top.object.set(top.key, v);
    this.i += c === "," || c === "}" ? 1 : 0;
    if (c === "}") return top.object;
    if (c !== ",") throw this.unexpected("after object key:value pair");
    top.key = this.key();
    return undefined;
  }

  /** An object key and its colon. */
  private key(): string {
    this.skipSpace();
    if (this.text[this.i] !== '"')
      throw this.unexpected("looking for beginning of object key string");
    const key = this.string();
    this.skipSpace();
    if (this.text[this.i] !== ":") throw this.unexpected("after object key");
    this.i++;
    return key;
  }

  private scalar(context: string): Value {
    const c = this.text[this.i];
    if (c === '"') return this.string();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
    const literal = LITERALS.find(([word]) => word[0] === c);
    if (!literal) throw this.unexpected(context);
    const [word, v] = literal;
    for (let k = 1; k < word.length; k++) {
      this.i++;
      if (this.text[this.i] !== word[k]) {
        throw this.unexpected(
          `in literal ${word} (expecting ${quoteChar(word[k] as string)})`,
          true,
        );
      }
    }
    this.i++;
    return v;
  }

  /** A number, scanned with the checks (and messages) of Go's JSON scanner. */
  private number(): Value {
    const start = this.i;
    const digits = (): number => {
      const from = this.i;
      while (isDigit(this.text[this.i])) this.i++;
      return this.i - from;
    };
    if (this.text[this.i] === "-") {
      this.i++;
      if (!isDigit(this.text[this.i])) throw this.unexpected("in numeric literal", true);
    }
    if (this.text[this.i] === "0") this.i++;
    else digits();
    if (this.text[this.i] === ".") {
      this.i++;
      if (digits() === 0) throw this.unexpected("after decimal point in numeric literal", true);
    }
    if (this.text[this.i] === "e" || this.text[this.i] === "E") {
      this.i++;
      if (this.text[this.i] === "+" || this.text[this.i] === "-") this.i++;
      if (digits() === 0) throw this.unexpected("in exponent of numeric literal", true);
    }
    const text = this.text.slice(start, this.i);
    const n = parseNumber(text) ?? Number(text);
    if (typeof n === "number" && !Number.isFinite(n)) {
      // Reported only once the whole text is known to be well-formed, as Go checks syntax first.
      this.rangeError ??= new JSONRangeError(`number ${text} is out of the representable range`);
    }
    return n;
  }

  private string(): string {
    this.i++;
    let out = "";
    for (;;) {
      const end = this.plainRunEnd();
      out += this.text.slice(this.i, end);
      this.i = end;
      if (end >= this.text.length) throw this.unexpected("");
      const c = this.text[this.i] as string;
      if (c === '"') {
        this.i++;
        return out;
      }
      if (c !== "\\") throw this.unexpected("in string literal");
      out += this.escape();
    }
  }

  /** Where the run of ordinary string characters starting at `i` ends. */
  private plainRunEnd(): number {
    let j = this.i;
    for (; j < this.text.length; j++) {
      const c = this.text.charCodeAt(j);
      if (c === 0x22 || c === 0x5c || c < 0x20) break;
    }
    return j;
  }

  private escape(): string {
    const e = this.text[this.i + 1];
    if (e === undefined) {
      this.i = this.text.length;
      throw this.unexpected("in string escape code", true);
    }
    if (e !== "u") {
      const mapped = SIMPLE_ESCAPES[e];
      this.i++;
      if (mapped === undefined) throw this.unexpected("in string escape code");
      this.i++;
      return mapped;
    }
    const hex = this.text.slice(this.i + 2, this.i + 6);
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
      this.i += 2 + (/^[0-9a-fA-F]*/.exec(hex)?.[0].length ?? 0);
      throw this.unexpected("in \\u hexadecimal character escape", true);
    }
    this.i += 6;
    const unit = Number.parseInt(hex, 16);
    if (unit < 0xd800 || unit > 0xdfff) return String.fromCharCode(unit);
    // A surrogate must pair with the next escape; a lone half becomes U+FFFD, as in Go.
    const low = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(this.text.slice(this.i, this.i + 6));
    if (unit <= 0xdbff && low) {
      this.i += 6;
      return String.fromCharCode(unit, Number.parseInt(low[1] as string, 16));
    }
    return "\ufffd";
  }
}

/** Go's encoding/json refuses nesting deeper than this; so does the reader. */
export const GO_MAX_JSON_DEPTH = 10_000;

/** Parses JSON text into a Value; throws JSONSyntaxError (JSONDepthError past `maxDepth`). */
export function readJSON(text: string, maxDepth = GO_MAX_JSON_DEPTH): Value {
  return new Reader(text, maxDepth).document();
}
