/**
 * JSON as OPA's Go code reads and writes it for bundle signatures: numbers keep the text they
 * were written with (Go decodes them as json.Number and writes them back verbatim), objects
 * keep the last of duplicate keys, and strings are escaped as Go's encoder escapes them.
 * File hashes and JWT payloads are computed over these bytes, so they must match Go's.
 */
import { jsonString } from "@quintet/gostd/json";

/** A JSON number kept as written. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

/** A JSON value as Go's decoder (with UseNumber) produces it. */
export type GoJson = null | boolean | string | JsonNumber | GoJson[] | Map<string, GoJson>;

/** Thrown for malformed JSON text, with Go's wording where it is short. */
export class GoJsonSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GoJsonSyntaxError";
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class Reader {
  pos = 0;
  constructor(readonly text: string) {}

  fail(what: string): never {
    throw new GoJsonSyntaxError(`invalid character ${what} at offset ${this.pos}`);
  }

  skipSpace(): void {
    while (this.pos < this.text.length && " \t\n\r".includes(this.text[this.pos] as string))
      this.pos++;
  }

  expect(ch: string): void {
    this.skipSpace();
    if (this.text[this.pos] !== ch) this.fail(this.describe());
    this.pos++;
  }

  describe(): string {
    const ch = this.text[this.pos];
    return ch === undefined ? "(end of input)" : `'${ch}'`;
  }

  value(depth: number): GoJson {
    if (depth > 10_000) this.fail("(nesting too deep)");
    this.skipSpace();
    const ch = this.text[this.pos];
    if (ch === "{") return this.object(depth);
    if (ch === "[") return this.array(depth);
    if (ch === '"') return this.string();
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text);
    if (!m) this.fail(this.describe());
    this.pos += m[0].length;
    return new JsonNumber(m[0]);
  }

  object(depth: number): Map<string, GoJson> {
    this.pos++;
    const out = new Map<string, GoJson>();
    this.skipSpace();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] !== '"') this.fail(this.describe());
      const key = this.string();
      this.expect(":");
      // Go's map keeps the last value of a repeated key.
      out.delete(key);
      out.set(key, this.value(depth + 1));
      if (this.closes("}")) return out;
    }
  }

  array(depth: number): GoJson[] {
    this.pos++;
    const out: GoJson[] = [];
    this.skipSpace();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      if (this.closes("]")) return out;
    }
  }

  /** After an element: true past the closing `close`, false past a comma; else Go's error. */
  private closes(close: "}" | "]"): boolean {
    this.skipSpace();
    const next = this.text[this.pos];
    if (next === close || next === ",") {
      this.pos++;
      return next === close;
    }
    return this.fail(this.describe());
  }

  string(): string {
    const start = this.pos;
    this.pos++;
    let escaped = false;
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos] as string;
      if (ch === "\\") {
        escaped = true;
        this.pos += 2;
        continue;
      }
      if (ch === '"') {
        this.pos++;
        const raw = this.text.slice(start, this.pos);
        if (!escaped) return raw.slice(1, -1);
        try {
          return JSON.parse(raw) as string;
        } catch {
          this.pos = start;
          this.fail("in string literal");
        }
      }
      if (ch < " ") this.fail("in string literal");
      this.pos++;
    }
    return this.fail("(unterminated string)");
  }
}

/** Parses JSON text, keeping number literals; throws GoJsonSyntaxError when malformed. */
export function parseGoJson(text: string): GoJson {
  const reader = new Reader(text);
  const value = reader.value(0);
  reader.skipSpace();
  if (reader.pos !== text.length) reader.fail(`'${text[reader.pos]}' after top-level value`);
  return value;
}

/** Converts a plain JavaScript value (from a YAML parser, say) to GoJson. */
export function goJsonFrom(value: unknown): GoJson {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new GoJsonSyntaxError(`unsupported value: ${value}`);
    return new JsonNumber(String(value));
  }
  if (typeof value === "bigint") return new JsonNumber(value.toString());
  if (Array.isArray(value)) return value.map(goJsonFrom);
  if (value instanceof Map)
    return new Map([...value.entries()].map(([k, v]) => [String(k), goJsonFrom(v)]));
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object")
    return new Map(Object.entries(value as object).map(([k, v]) => [k, goJsonFrom(v)]));
  throw new GoJsonSyntaxError(`unsupported value of type ${typeof value}`);
}

/** A string as Go's encoding/json writes it (see @quintet/gostd/json). */
export function goQuote(s: string, escapeHTML: boolean): string {
  return jsonString(s, escapeHTML);
}

/** Compares keys as Go's sort.Strings does: by their UTF-8 bytes. */
export function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** Writes a value as Go's json.Marshal does for maps (keys sorted), compactly. */
export function goMarshal(value: GoJson, escapeHTML = true): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "string") return goQuote(value, escapeHTML);
  if (value instanceof JsonNumber) return value.text;
  if (Array.isArray(value)) return `[${value.map((v) => goMarshal(v, escapeHTML)).join(",")}]`;
  const keys = [...value.keys()].sort(compareUtf8);
  const items = keys.map(
    (k) => `${goQuote(k, escapeHTML)}:${goMarshal(value.get(k) as GoJson, escapeHTML)}`,
  );
  return `{${items.join(",")}}`;
}
