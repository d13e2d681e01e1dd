/**
 * Compact JSON text straight from a Value, without building the plain-JSON copy that
 * `toJSON` makes for `JSON.stringify`. It is a fast path for answers: where the text could
 * differ from `JSON.stringify(toJSON(v))` it gives up and the caller takes that path.
 */
import { DecimalNumber } from "./decimal-number.js";
import { type RegoObject, RegoSet, type Value } from "./value.js";

/** Thrown inside the walk to abandon the fast path; never leaves this module. */
const GIVE_UP = Symbol("give up");

/**
 * Object keys that a plain JS object would reorder (array-index-like strings come first)
 * or swallow (`__proto__`): such objects are left to the general path.
 */
function isPlainSafeKey(key: string): boolean {
  if (key === "__proto__") return false;
  const c = key.charCodeAt(0);
  // Only keys starting with a digit can be array indexes; keep those for the slow path.
  return !(c >= 48 && c <= 57);
}

/** A JSON string literal; plain printable ASCII needs no escaping, so no encoder call. */
function quote(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c > 0x7e) return JSON.stringify(s);
  }
  return `"${s}"`;
}

function write(v: Value): string {
  if (v === null) return "null";
  switch (typeof v) {
    case "string":
      return quote(v);
    case "boolean":
      return v ? "true" : "false";
    case "number":
      // String() and JSON.stringify agree on finite numbers (-0 included: both write 0).
      return Number.isFinite(v) ? String(v) : "null";
    case "bigint":
      return v.toString();
  }
  if (Array.isArray(v)) return writeList(v);
  if (v instanceof RegoSet) return writeList(v.sorted());
  if (v instanceof DecimalNumber) return v.text;
  return writeObject(v as RegoObject);
}

function writeList(items: readonly Value[]): string {
  if (items.length === 0) return "[]";
  let out = "[";
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ",";
    out += write(items[i] as Value);
  }
  return `${out}]`;
}

function writeObject(o: RegoObject): string {
  const entries = o.sortedEntries();
  if (entries.length === 0) return "{}";
  let out = "{";
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as [Value, Value];
    const k = entry[0];
    if (typeof k !== "string" || !isPlainSafeKey(k)) throw GIVE_UP;
    if (i > 0) out += ",";
    out += `${quote(k)}:${write(entry[1])}`;
  }
  return `${out}}`;
}

/**
 * The compact JSON text of `v` (no trailing newline), exactly as
 * `JSON.stringify(toJSON(v))` writes it with big integers in full; undefined when an
 * object key (non-string, digit-led or `__proto__`) needs the general path.
 */
export function compactJSONText(v: Value): string | undefined {
  try {
    return write(v);
  } catch (e) {
    if (e === GIVE_UP) return undefined;
    throw e;
  }
}
