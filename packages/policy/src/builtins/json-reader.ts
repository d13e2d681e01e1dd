/**
 * A JSON reader that builds Rego values directly: integers keep every digit (bigint beyond
 * the safe range), objects become RegoObjects. Errors read like Go's encoding/json.
 */
import { parseNumber } from "../value/number.js";
import { RegoObject, type Value } from "../value/value.js";

/** A malformed JSON text, with Go's wording. */
export class JSONSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JSONSyntaxError";
  }
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

class Reader {
  private i = 0;

  constructor(private readonly text: string) {}

  document(): Value {
    const v = this.value("looking for beginning of value");
    this.skipSpace();
    if (this.i < this.text.length) throw this.unexpected("after top-level value");
    return v;
  }

  private skipSpace(): void {
    while (this.i < this.text.length && " \t\n\r".includes(this.text[this.i] as string)) this.i++;
  }

  private unexpected(context: string): JSONSyntaxError {
    if (this.i >= this.text.length) return new JSONSyntaxError("unexpected end of JSON input");
    const ch = String.fromCodePoint(this.text.codePointAt(this.i) as number);
    const shown = ch === "'" ? "\\'" : ch === "\\" ? "\\\\" : ch;
    return new JSONSyntaxError(`invalid character '${shown}' ${context}`);
  }

  private value(context: string): Value {
    this.skipSpace();
    const c = this.text[this.i];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"') return this.string();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
    for (const [word, v] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return v;
      }
    }
    throw this.unexpected(context);
  }

  private number(): Value {
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(this.text);
    if (!m) {
      this.i++;
      throw this.unexpected("in numeric literal");
    }
    this.i += m[0].length;
    return parseNumber(m[0]) ?? Number(m[0]);
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
      throw this.unexpected("");
    }
    if (e !== "u") {
      const mapped = ESCAPES[e];
      this.i++;
      if (mapped === undefined) throw this.unexpected("in string escape code");
      this.i++;
      return mapped;
    }
    const hex = this.text.slice(this.i + 2, this.i + 6);
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
      this.i += 2 + (/^[0-9a-fA-F]*/.exec(hex)?.[0].length ?? 0);
      throw this.unexpected("in \\u hexadecimal character escape");
    }
    this.i += 6;
    return String.fromCharCode(Number.parseInt(hex, 16));
  }

  private array(): Value[] {
    this.i++;
    const out: Value[] = [];
    this.skipSpace();
    if (this.text[this.i] === "]") {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value("looking for beginning of value"));
      this.skipSpace();
      const c = this.text[this.i];
      this.i += c === "," || c === "]" ? 1 : 0;
      if (c === "]") return out;
      if (c !== ",") throw this.unexpected("after array element");
    }
  }

  private object(): RegoObject {
    this.i++;
    const out = new RegoObject();
    this.skipSpace();
    if (this.text[this.i] === "}") {
      this.i++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.i] !== '"')
        throw this.unexpected("looking for beginning of object key string");
      const key = this.string();
      this.skipSpace();
      if (this.text[this.i] !== ":") throw this.unexpected("after object key");
      this.i++;
      out.set(key, this.value("looking for beginning of value"));
      this.skipSpace();
      const c = this.text[this.i];
      this.i += c === "," || c === "}" ? 1 : 0;
      if (c === "}") return out;
      if (c !== ",") throw this.unexpected("after object key:value pair");
    }
  }
}

/** Parses JSON text into a Value; throws JSONSyntaxError. */
export function readJSON(text: string): Value {
  return new Reader(text).document();
}
