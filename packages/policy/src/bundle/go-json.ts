/**
 * JSON as OPA's Go code reads and writes it for bundle signatures: numbers keep the text they
 * were written with (Go decodes them as json.Number and writes them back verbatim), objects
 * keep the last of duplicate keys, and strings are escaped as Go's encoder escapes them.
 * File hashes and JWT payloads are computed over these bytes, so they must match Go's.
 */
import {
  type JsonBuilder,
  type JsonErrorAt,
  JsonSyntaxError,
  jsonString,
  parseJson,
} from "@quintet/gostd/json";

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

/** Go's decoder with UseNumber: numbers as written, maps keeping a repeated key's last value. */
const GO_JSON: JsonBuilder<GoJson, Map<string, GoJson>> = {
  string: (s) => s,
  number: (text) => new JsonNumber(text),
  literal: (v) => v,
  array: (items) => items,
  newObject: () => new Map(),
  set(object, key, value) {
    // Go's map keeps the last value of a repeated key.
    object.delete(key);
    object.set(key, value);
  },
  object: (object) => object,
};

/** Parses JSON text, keeping number literals; throws GoJsonSyntaxError when malformed. */
export function parseGoJson(text: string): GoJson {
  try {
    return parseJson(text, GO_JSON);
  } catch (e) {
    if (!(e instanceof JsonSyntaxError) || e.at === undefined) throw e;
    throw new GoJsonSyntaxError(`invalid character ${bundleWording(text, e.at)}`);
  }
}

/** What follows "invalid character" in the messages bundle signatures have always given. */
function bundleWording(text: string, at: JsonErrorAt): string {
  const found = text[at.offset];
  const described = found === undefined ? "(end of input)" : `'${found}'`;
  switch (at.site) {
    case "after-top":
      return `${described} after top-level value at offset ${at.offset}`;
    case "depth":
      return `(nesting too deep) at offset ${at.offset}`;
    case "string":
      return stringWording(text, at.tokenStart);
    default:
      return `${described} at offset ${at.offset}`;
  }
}

/**
 * A malformed string is judged whole: a raw control character where it stands, an unclosed
 * string at the end, anything else (a bad escape) at the opening quote.
 */
function stringWording(text: string, start: number): string {
  let pos = start + 1;
  while (pos < text.length) {
    const ch = text[pos] as string;
    if (ch === "\\") {
      pos += 2;
      continue;
    }
    if (ch === '"') return `in string literal at offset ${start}`;
    if (ch < " ") return `in string literal at offset ${pos}`;
    pos++;
  }
  return `(unterminated string) at offset ${pos}`;
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

/** Compares keys as Go's sort.Strings does: by their UTF-8 bytes. */
export function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** Writes a value as Go's json.Marshal does for maps (keys sorted), compactly. */
export function goMarshal(value: GoJson, escapeHTML = true): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "string") return jsonString(value, escapeHTML);
  if (value instanceof JsonNumber) return value.text;
  if (Array.isArray(value)) return `[${value.map((v) => goMarshal(v, escapeHTML)).join(",")}]`;
  const keys = [...value.keys()].sort(compareUtf8);
  const items = keys.map(
    (k) => `${jsonString(k, escapeHTML)}:${goMarshal(value.get(k) as GoJson, escapeHTML)}`,
  );
  return `{${items.join(",")}}`;
}
