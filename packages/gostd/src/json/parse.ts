/**
 * encoding/json's scanner: JSON text read into whatever values a builder makes, with the checks
 * and error wording of Go's decoder (numbers handed over as written, lone surrogates as U+FFFD).
 */

import { goQuote } from "../strconv/quote.js";

/** Makes the values of one document; the parser decides only what the text says. */
export interface JsonBuilder<V, O> {
  string(s: string): V;
  /** A number exactly as written (already checked against JSON's grammar). */
  number(text: string): V;
  literal(v: boolean | null): V;
  /** An array from its elements (the builder may keep the array it is given). */
  array(items: V[]): V;
  newObject(): O;
  /** Adds a member; a repeated key is the builder's to settle (Go keeps the last). */
  set(object: O, key: string, value: V): void;
  object(object: O): V;
}

/**
 * Where a reader that matches whole tokens and then checks what follows would stop (the
 * wording some callers keep): the kind of check that failed, its offset, and where the token
 * being read began. Malformed numbers (`1.`, `2e`) count as a number cut short before the
 * `.` or `e`, followed by a character the enclosing container does not allow.
 */
export interface JsonErrorAt {
  readonly site:
    | "value"
    | "number"
    | "string"
    | "key"
    | "colon"
    | "after-element"
    | "after-member"
    | "after-top"
    | "depth";
  readonly offset: number;
  readonly tokenStart: number;
}

/** A malformed JSON text, with Go's wording. */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    /** Undefined for errors raised after the scan (a builder's, say). */
    readonly at?: JsonErrorAt,
  ) {
    super(message);
    this.name = "JSONSyntaxError";
  }
}

/** JSON nested deeper than the parser was told to accept. */
export class JsonDepthError extends JsonSyntaxError {
  constructor(
    readonly maxDepth: number,
    at: JsonErrorAt,
  ) {
    super(`exceeded max depth of ${maxDepth}`, at);
    this.name = "JSONDepthError";
  }
}

/** Go's encoding/json refuses nesting deeper than this. */
export const GO_MAX_JSON_DEPTH = 10_000;

/**
 * The one-character escapes of a JSON string (`\n` is a newline, ...); Rego's and GraphQL's
 * strings have the same ones, so their lexers read this table too.
 */
export const SIMPLE_ESCAPES: Readonly<Record<string, string>> = Object.freeze({
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
});

const LITERALS: readonly (readonly [string, boolean | null])[] = [
  ["true", true],
  ["false", false],
  ["null", null],
];

const BEGIN_VALUE = "looking for beginning of value";

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
type Container<V, O> = { items: V[] } | { object: O; key: string };

class Parser<V, O> {
  private i = 0;
  /** Arrays and objects open at the cursor. */
  private depth = 0;
  /** Containers open at the cursor, innermost last: the parser never recurses. */
  private readonly open: Container<V, O>[] = [];

  constructor(
    private readonly text: string,
    private readonly build: JsonBuilder<V, O>,
    private readonly maxDepth: number,
  ) {}

  document(): V {
    const v = this.value();
    this.skipSpace();
    if (this.i < this.text.length) throw this.unexpected("after top-level value", "after-top");
    return v;
  }

  private skipSpace(): void {
    const text = this.text;
    let i = this.i;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    }
    this.i = i;
  }

  /**
   * Go's error for the character at `i` (or the end of input). `site` and `tokenStart` say
   * where a token-matching reader stops; `offset` defaults to the cursor.
   */
  private unexpected(
    context: string,
    site: JsonErrorAt["site"],
    { midToken = false, tokenStart = this.i, offset = this.i } = {},
  ): JsonSyntaxError {
    const at = { site, offset, tokenStart };
    // Go feeds a space at the end of input: inside a token that space is the culprit.
    if (this.i >= this.text.length && !midToken)
      return new JsonSyntaxError("unexpected end of JSON input", at);
    // Go reports a byte: for a multi-byte character, its first UTF-8 byte as a Latin-1 rune.
    const ch =
      this.i >= this.text.length
        ? " "
        : String.fromCharCode(
            Buffer.from(this.text.slice(this.i, this.i + 2), "utf8")[0] as number,
          );
    return new JsonSyntaxError(`invalid character ${quoteChar(ch)} ${context}`, at);
  }

  /** The check after a value in the innermost open container (the document, if none). */
  private afterValueSite(): JsonErrorAt["site"] {
    const top = this.open[this.open.length - 1];
    if (top === undefined) return "after-top";
    return "items" in top ? "after-element" : "after-member";
  }

  /** Reads one value, handing each finished one to the containers it completes. */
  private value(): V {
    const open = this.open;
    for (;;) {
      let v = this.start();
      if (v === undefined) continue;
      for (;;) {
        const top = open[open.length - 1];
        if (top === undefined) return v;
        const done = this.add(top, v);
        if (done === undefined) break;
        open.pop();
        this.depth--;
        v = done;
      }
    }
  }

  /** A scalar or empty container at the cursor; undefined after opening a container. */
  private start(): V | undefined {
    this.skipSpace();
    const c = this.text[this.i];
    if (c === "[" || c === "{") {
      if (++this.depth > this.maxDepth)
        throw new JsonDepthError(this.maxDepth, {
          site: "depth",
          offset: this.i,
          tokenStart: this.i,
        });
      this.i++;
      this.skipSpace();
      if (this.text[this.i] === (c === "[" ? "]" : "}")) {
        this.i++;
        this.depth--;
        return c === "[" ? this.build.array([]) : this.build.object(this.build.newObject());
      }
      if (c === "[") this.open.push({ items: [] });
      else this.open.push({ object: this.build.newObject(), key: this.key() });
      return undefined;
    }
    return this.scalar();
  }

  /** Adds `v` to the container; its finished value when that closes it, else undefined. */
  private add(top: Container<V, O>, v: V): V | undefined {
    this.skipSpace();
    const c = this.text[this.i];
    if ("items" in top) {
      top.items.push(v);
      if (c === "]") {
        this.i++;
        return this.build.array(top.items);
      }
      if (c !== ",") throw this.unexpected("after array element", "after-element");
      this.i++;
      return undefined;
    }
    this.build.set(top.object, top.key, v);
    if (c === "}") {
      this.i++;
      return this.build.object(top.object);
    }
    if (c !== ",") throw this.unexpected("after object key:value pair", "after-member");
    this.i++;
    top.key = this.key();
    return undefined;
  }

  /** An object key and its colon. */
  private key(): string {
    this.skipSpace();
    if (this.text[this.i] !== '"')
      throw this.unexpected("looking for beginning of object key string", "key");
    const key = this.string();
    this.skipSpace();
    if (this.text[this.i] !== ":") throw this.unexpected("after object key", "colon");
    this.i++;
    return key;
  }

  private scalar(): V {
    const c = this.text[this.i];
    if (c === '"') return this.build.string(this.string());
    if (c === "-" || isDigit(c)) return this.build.number(this.number());
    const literal = LITERALS.find(([word]) => word[0] === c);
    if (!literal) throw this.unexpected(BEGIN_VALUE, "value");
    const [word, v] = literal;
    const start = this.i;
    for (let k = 1; k < word.length; k++) {
      this.i++;
      if (this.text[this.i] !== word[k]) {
        throw this.unexpected(
          `in literal ${word} (expecting ${quoteChar(word[k] as string)})`,
          "value",
          {
            midToken: true,
            tokenStart: start,
            offset: start,
          },
        );
      }
    }
    this.i++;
    return this.build.literal(v);
  }

  /** A number's text, scanned with the checks (and messages) of Go's JSON scanner. */
  private number(): string {
    const start = this.i;
    const digits = (): number => {
      const from = this.i;
      while (isDigit(this.text[this.i])) this.i++;
      return this.i - from;
    };
    if (this.text[this.i] === "-") {
      this.i++;
      if (!isDigit(this.text[this.i]))
        throw this.unexpected("in numeric literal", "number", {
          midToken: true,
          tokenStart: start,
          offset: start,
        });
    }
    if (this.text[this.i] === "0") this.i++;
    else digits();
    if (this.text[this.i] === ".") {
      const dot = this.i++;
      if (digits() === 0)
        throw this.unexpected("after decimal point in numeric literal", this.afterValueSite(), {
          midToken: true,
          tokenStart: start,
          offset: dot,
        });
    }
    if (this.text[this.i] === "e" || this.text[this.i] === "E") {
      const e = this.i++;
      if (this.text[this.i] === "+" || this.text[this.i] === "-") this.i++;
      if (digits() === 0)
        throw this.unexpected("in exponent of numeric literal", this.afterValueSite(), {
          midToken: true,
          tokenStart: start,
          offset: e,
        });
    }
    return this.text.slice(start, this.i);
  }

  private string(): string {
    const start = this.i++;
    let out = "";
    for (;;) {
      const end = this.plainRunEnd();
      out += this.text.slice(this.i, end);
      this.i = end;
      if (end >= this.text.length) throw this.unexpected("", "string", { tokenStart: start });
      const c = this.text[this.i] as string;
      if (c === '"') {
        this.i++;
        return out;
      }
      if (c !== "\\") throw this.unexpected("in string literal", "string", { tokenStart: start });
      out += this.escape(start);
    }
  }

  /** Where the run of ordinary string characters starting at `i` ends. */
  private plainRunEnd(): number {
    const text = this.text;
    let j = this.i;
    for (; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c === 0x22 || c === 0x5c || c < 0x20) break;
    }
    return j;
  }

  private escape(start: number): string {
    const e = this.text[this.i + 1];
    const where = { tokenStart: start };
    if (e === undefined) {
      this.i = this.text.length;
      throw this.unexpected("in string escape code", "string", { ...where, midToken: true });
    }
    if (e !== "u") {
      const mapped = SIMPLE_ESCAPES[e];
      this.i++;
      if (mapped === undefined) throw this.unexpected("in string escape code", "string", where);
      this.i++;
      return mapped;
    }
    const hex = this.text.slice(this.i + 2, this.i + 6);
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
      this.i += 2 + (/^[0-9a-fA-F]*/.exec(hex)?.[0].length ?? 0);
      throw this.unexpected("in \\u hexadecimal character escape", "string", {
        ...where,
        midToken: true,
      });
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

/**
 * Parses one JSON document into the builder's values; throws JsonSyntaxError (JsonDepthError
 * for arrays and objects nested past `maxDepth`).
 */
export function parseJson<V, O>(
  text: string,
  builder: JsonBuilder<V, O>,
  maxDepth = GO_MAX_JSON_DEPTH,
): V {
  return new Parser(text, builder, maxDepth).document();
}
