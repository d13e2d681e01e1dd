/**
 * uuid.rfc4122 (a random version 4 UUID, the same for the same key within one query) and
 * uuid.parse (the fields of a UUID in the standard, braced, URN or unhyphenated form).
 */
import { randomUUID } from "node:crypto";
import { normalizeNumber } from "../value/number.js";
import { RegoObject, type Value } from "../value/value.js";
import { asString } from "./args.js";
import { withNamePrefix } from "./error-prefix.js";
import type { BuiltinDef } from "./registry-types.js";

/** 100-nanosecond intervals between the Gregorian reform (1582-10-15) and the Unix epoch. */
const GREGORIAN_TO_UNIX = 122192928000000000n;

/** The 16 bytes of a UUID text, or undefined when the text is not a UUID. */
export function uuidBytes(text: string): Uint8Array | undefined {
  let s = text;
  if (s.length === 45 && s.slice(0, 9).toLowerCase() === "urn:uuid:") s = s.slice(9);
  else if (s.length === 38 && s.startsWith("{") && s.endsWith("}")) s = s.slice(1, -1);
  let hex: string;
  if (s.length === 36) {
    if (s[8] !== "-" || s[13] !== "-" || s[18] !== "-" || s[23] !== "-") return undefined;
    hex = s.replaceAll("-", "");
    if (hex.length !== 32) return undefined;
  } else if (s.length === 32) hex = s;
  else return undefined;
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) return undefined;
  return Uint8Array.from(Buffer.from(hex, "hex"));
}

function variantName(b: Uint8Array): string {
  const x = b[8] as number;
  if ((x & 0xc0) === 0x80) return "RFC4122";
  if ((x & 0xe0) === 0xc0) return "Microsoft";
  if ((x & 0xe0) === 0xe0) return "Future";
  return "Reserved";
}

/** Fields that time-based UUIDs (versions 1 and 2) carry. */
function timeFields(b: Uint8Array, out: RegoObject): void {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const ticks =
    BigInt(view.getUint32(0)) |
    (BigInt(view.getUint16(4)) << 32n) |
    (BigInt(view.getUint16(6) & 0x0fff) << 48n);
  const sinceEpoch = ticks - GREGORIAN_TO_UNIX;
  const seconds = sinceEpoch / 10000000n;
  const nanos = (sinceEpoch % 10000000n) * 100n;
  out.set("time", normalizeNumber(seconds * 1000000000n + nanos));
  out.set("clocksequence", view.getUint16(8) & 0x3fff);
  const node = Array.from(b.slice(10), (x) => x.toString(16).padStart(2, "0"));
  out.set("nodeid", node.join("-"));
  const first = b[10] as number;
  out.set(
    "macvariables",
    `${first & 0x02 ? "local" : "global"}:${first & 0x01 ? "multicast" : "unicast"}`,
  );
}

function domainName(d: number): string {
  return ["Person", "Group", "Org"][d] ?? `Domain${d}`;
}

function parseUUID(args: Value[]): Value | undefined {
  const b = uuidBytes(asString("uuid.parse", args[0] as Value, 1));
  if (!b) return undefined;
  const version = (b[6] as number) >> 4;
  const out = new RegoObject();
  out.set("variant", variantName(b));
  out.set("version", version);
  if (version === 1 || version === 2) timeFields(b, out);
  if (version === 2) {
    out.set("domain", domainName(b[9] as number));
    out.set("id", new DataView(b.buffer, b.byteOffset).getUint32(0));
  }
  return out;
}

function rfc4122(args: Value[], ctx: { cache: Map<string, unknown> }): Value {
  const key = asString("uuid.rfc4122", args[0] as Value, 1);
  const cacheKey = `uuid.rfc4122\u0000${key}`;
  const hit = ctx.cache.get(cacheKey);
  if (typeof hit === "string") return hit;
  const id = randomUUID();
  ctx.cache.set(cacheKey, id);
  return id;
}

export const uuidBuiltins: BuiltinDef[] = withNamePrefix([
  {
    name: "uuid.rfc4122",
    args: ["string"],
    result: "string",
    nondeterministic: true,
    impl: rfc4122,
  },
  { name: "uuid.parse", args: ["string"], result: "object[string, any]", impl: parseUUID },
]);
