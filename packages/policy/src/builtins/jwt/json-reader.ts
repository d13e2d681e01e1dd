/**
 * JSON text to Rego values with exact big integers (JSON.parse would round them). Duplicate
 * object keys keep the last value, as Go's decoder does.
 */
import { parseNumber } from "../../value/number.js";
import { RegoObject, type Value } from "../../value/value.js";

/** Parses one JSON document; throws SyntaxError with the offset of the problem. */
export function readJSON(text: string): Value {
  const r = new Reader(text);
  r.ws();
  const v = r.value();
  r.ws();
  if (r.pos < text.length) r.fail("unexpected text after the value");
  return v;
}

// Characters below U+0020 are excluded by the class built from their code points.
const stringPattern = new RegExp(
  `"(?:[^"\\\\${String.fromCharCode(0)}-${String.fromCharCode(0x1f)}]|\\\\(?:["\\\\/bfnrt]|u[0-9a-fA-F]{4}))*"`,
  "y",
);
const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class Reader {
  pos = 0;
  constructor(private readonly s: string) {}

  fail(what: string): never {
    throw new SyntaxError(`${what} at offset ${this.pos}`);
  }

  ws(): void {
    while (this.pos < this.s.length && " \t\n\r".includes(this.s[this.pos] as string)) this.pos++;
  }

  value(): Value {
    const c = this.s[this.pos];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"') return this.string();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
    for (const [word, v] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (this.s.startsWith(word, this.pos)) {
        this.pos += word.length;
        return v;
      }
    }
    return this.fail(
      c === undefined ? "unexpected end of JSON input" : `invalid character ${JSON.stringify(c)}`,
    );
  }

  private object(): RegoObject {
    const o = new RegoObject();
    this.pos++;
    this.ws();
    if (this.s[this.pos] === "}") {
      this.pos++;
      return o;
    }
    for (;;) {
      this.ws();
      if (this.s[this.pos] !== '"') this.fail("expected a string key");
      const key = this.string();
      this.ws();
      if (this.s[this.pos] !== ":") this.fail("expected ':'");
      this.pos++;
      this.ws();
      o.set(key, this.value());
      this.ws();
      const c = this.s[this.pos++];
      if (c === "}") return o;
      if (c !== ",") this.fail("expected ',' or '}'");
    }
  }

  private array(): Value[] {
    const out: Value[] = [];
    this.pos++;
    this.ws();
    if (this.s[this.pos] === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.ws();
      out.push(this.value());
      this.ws();
      const c = this.s[this.pos++];
      if (c === "]") return out;
      if (c !== ",") this.fail("expected ',' or ']'");
    }
  }

  private string(): string {
    stringPattern.lastIndex = this.pos;
    const m = stringPattern.exec(this.s);
    if (!m) return this.fail("invalid string");
    this.pos += m[0].length;
    return JSON.parse(m[0]) as string;
  }

  private number(): Value {
    numberPattern.lastIndex = this.pos;
    const m = numberPattern.exec(this.s);
    if (!m) return this.fail("invalid number");
    this.pos += m[0].length;
    return parseNumber(m[0]) as Value;
  }
}
