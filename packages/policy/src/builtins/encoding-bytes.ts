/**
 * Byte-level encodings of strings (their UTF-8 bytes): base64, base64url, hex and URL query
 * escaping, with the strictness and error messages of Go's encoders.
 */

import { isPrintable } from "@quintet/gostd/strconv";
import { BuiltinError, BuiltinTypeError } from "../errors.js";
import { RegoObject, RegoSet, type Value } from "../value/value.js";
import { asObject, asString } from "./args.js";
import { goString, quoteBytes } from "./go-bytes.js";
import type { BuiltinDef } from "./registry-types.js";

const STD = /^[A-Za-z0-9+/]$/;
const URL_SAFE = /^[A-Za-z0-9_-]$/;

/**
 * Go's strict padded base64 decoding, quantum by quantum: newlines are skipped, and the error
 * names the byte offset Go's decoder reports.
 */
function decodeBase64(s: string, alphabet: RegExp): string {
  const src = Buffer.from(s, "utf8");
  const fail = (at: number): BuiltinError =>
    new BuiltinError(`illegal base64 data at input byte ${at}`);
  const isNewline = (b: number | undefined) => b === 0x0a || b === 0x0d;
  const out: number[] = [];
  let si = 0;
  for (;;) {
    const quantum: number[] = [];
    let done = false;
    while (quantum.length < 4) {
      if (si === src.length) {
        if (quantum.length === 0) return goString(Buffer.from(out));
        throw fail(si - quantum.length);
      }
      const b = src[si++] as number;
      const c = String.fromCharCode(b);
      if (b < 0x80 && alphabet.test(c)) {
        quantum.push(BASE64_VALUE.get(c) ?? 0);
        continue;
      }
      if (isNewline(b)) continue;
      if (c !== "=" || quantum.length < 2) throw fail(si - 1);
      if (quantum.length === 2) {
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) throw fail(src.length);
        if (src[si] !== 0x3d) throw fail(si - 1);
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      if (si < src.length) throw fail(si);
      done = true;
      break;
    }
    out.push(...quantumBytes(quantum));
    if (done) return goString(Buffer.from(out));
  }
}

const BASE64_VALUE = new Map<string, number>(
  [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"].map((c, i) => [c, i]),
);
for (const [c, v] of [
  ["+", 62],
  ["/", 63],
  ["-", 62],
  ["_", 63],
] as const)
  BASE64_VALUE.set(c, v);

/** The bytes of 2 to 4 base64 digits. */
function quantumBytes(q: number[]): number[] {
  const n = ((q[0] ?? 0) << 18) | ((q[1] ?? 0) << 12) | ((q[2] ?? 0) << 6) | (q[3] ?? 0);
  return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff].slice(0, q.length - 1);
}

function base64Valid(s: string): boolean {
  try {
    decodeBase64(s, STD);
    return true;
  } catch {
    return false;
  }
}

/** RFC 7515: an unpadded base64url string gets its padding back before strict decoding. */
function decodeBase64URL(s: string): string {
  let padded = s;
  if (!s.endsWith("=")) {
    const rest = s.length % 4;
    if (rest === 1) throw new BuiltinError(`illegal base64url string: ${s}`);
    padded = s + "=".repeat(rest === 0 ? 0 : 4 - rest);
  }
  return decodeBase64(padded, URL_SAFE);
}

/** Go's hex.DecodeString: invalid bytes are reported before an odd length. */
function decodeHex(s: string): string {
  const bytes = Buffer.from(s, "utf8");
  const hexDigit = (b: number): boolean => /[0-9a-fA-F]/.test(String.fromCharCode(b));
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (!hexDigit(b) && (i % 2 === 0 || i < bytes.length - (bytes.length % 2))) {
      // Go's %#U: the code, then the character when it is printable.
      const cp = b.toString(16).toUpperCase().padStart(4, "0");
      const ch = String.fromCharCode(b);
      throw new BuiltinError(
        `encoding/hex: invalid byte: U+${cp}${isPrintable(ch) ? ` '${ch}'` : ""}`,
      );
    }
  }
  if (bytes.length % 2 === 1) throw new BuiltinError("encoding/hex: odd length hex string");
  return goString(Buffer.from(s, "hex"));
}

/** Go's url.QueryEscape: unreserved bytes stay, space becomes `+`, the rest `%XX`. */
function queryEscape(s: string): string {
  let out = "";
  for (const b of Buffer.from(s, "utf8")) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === " ") out += "+";
    else out += `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Go's url.QueryUnescape: `+` is a space; a bad escape is an error quoting it. */
export function queryUnescape(s: string): string {
  const bytes: number[] = [];
  const raw = Buffer.from(s, "utf8");
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i] as number;
    if (b === 0x25) {
      const hex = raw.subarray(i + 1, i + 3).toString("latin1");
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) {
        const shown = quoteBytes(raw.subarray(i, Math.min(i + 3, raw.length)));
        throw new BuiltinError(`invalid URL escape ${shown}`);
      }
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(b === 0x2b ? 0x20 : b);
  }
  return goString(Buffer.from(bytes));
}

/** The string values of one query parameter: a string, or an array/set of strings. */
function paramValues(v: Value): string[] {
  const items =
    typeof v === "string"
      ? [v]
      : Array.isArray(v)
        ? v
        : v instanceof RegoSet
          ? v.sorted()
          : undefined;
  if (!items || items.some((x) => typeof x !== "string")) {
    throw new BuiltinTypeError(
      "urlquery.encode_object: operand 1 values must be string, array[string], or set[string]",
    );
  }
  return items as string[];
}

function encodeObject(args: Value[]): Value {
  const obj = asObject("urlquery.encode_object", args[0] as Value, 1);
  const parts: string[] = [];
  for (const [k, v] of obj.sortedEntries()) {
    if (typeof k !== "string") {
      throw new BuiltinTypeError("urlquery.encode_object: operand 1 must be object[string, any]");
    }
    for (const x of paramValues(v)) parts.push(`${queryEscape(k)}=${queryEscape(x)}`);
  }
  return parts.join("&");
}

/** Go's url.ParseQuery: `&`-separated pairs; semicolons are rejected. */
function decodeObject(args: Value[]): Value {
  const fn = "urlquery.decode_object";
  const s = asString(fn, args[0] as Value, 1);
  const groups = new Map<string, string[]>();
  for (const part of s.split("&")) {
    if (part === "") continue;
    if (part.includes(";")) throw new BuiltinError("invalid semicolon separator in query");
    const eq = part.indexOf("=");
    const key = queryUnescape(eq < 0 ? part : part.slice(0, eq));
    const value = queryUnescape(eq < 0 ? "" : part.slice(eq + 1));
    groups.set(key, [...(groups.get(key) ?? []), value]);
  }
  return RegoObject.fromEntries([...groups].map(([k, vs]) => [k, vs]));
}

/** A builtin from one string to one string. */
function stringToString(name: string, body: (s: string) => Value): BuiltinDef {
  return {
    name,
    args: ["string"],
    result: "string",
    impl: (args) => body(asString(name, args[0] as Value, 1)),
  };
}

const utf8 = (s: string): Buffer => Buffer.from(s, "utf8");

export const encodingBytesBuiltins: BuiltinDef[] = [
  stringToString("base64.encode", (s) => utf8(s).toString("base64")),
  stringToString("base64.decode", (s) => decodeBase64(s, STD)),
  {
    name: "base64.is_valid",
    args: ["string"],
    result: "boolean",
    impl: (args) => base64Valid(asString("base64.is_valid", args[0] as Value, 1)),
  },
  stringToString("base64url.encode", (s) => {
    const raw = utf8(s).toString("base64url");
    return raw + "=".repeat((4 - (raw.length % 4)) % 4);
  }),
  stringToString("base64url.encode_no_pad", (s) => utf8(s).toString("base64url")),
  stringToString("base64url.decode", decodeBase64URL),
  stringToString("hex.encode", (s) => utf8(s).toString("hex")),
  stringToString("hex.decode", decodeHex),
  stringToString("urlquery.encode", queryEscape),
  stringToString("urlquery.decode", (s) => queryUnescape(s)),
  { name: "urlquery.encode_object", args: ["object"], result: "string", impl: encodeObject },
  {
    name: "urlquery.decode_object",
    args: ["string"],
    result: "object[string, array[string]]",
    impl: decodeObject,
  },
];
