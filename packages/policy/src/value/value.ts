/**
 * Rego values as plain JS where possible: null, boolean, string, a RegoNumber (number or
 * bigint) and arrays (`Value[]`), plus two classes for what JSON lacks: objects whose keys may
 * be any value, and sets. Values are immutable once built: construct, then share freely.
 */
import { DecimalNumber, decimalKey, unmarkNumberTexts } from "./decimal-number.js";
import {
  compareNumbers,
  formatNumber,
  isNumber,
  normalizeNumber,
  type RegoNumber,
} from "./number.js";

export type Value = null | boolean | RegoNumber | string | Value[] | RegoObject | RegoSet;

/** Keys that a JS Map can hold by value; composite keys are encoded to a string. */
type MapKey = string | number | bigint | boolean | null;

/**
 * Map key for a value. Strings map to themselves (the fast path for JSON objects);
 * every other kind gets a prefix that a string key cannot produce because composite and
 * non-string keys live in a separate map.
 */
function mapKey(v: Value): { primitive: boolean; key: MapKey } {
  if (typeof v === "string" || typeof v === "boolean" || v === null)
    return { primitive: true, key: v };
  if (typeof v === "number" || typeof v === "bigint") return { primitive: true, key: v };
  // A decimal equal to a double shares the double's key; any other gets a key of its own.
  if (v instanceof DecimalNumber && v.sameAsDouble) return { primitive: true, key: v.value };
  return { primitive: false, key: canonicalKey(v) };
}

/** A deterministic string for a composite value, equal for equal values. */
export function canonicalKey(v: Value): string {
  if (v === null) return "n";
  if (typeof v === "boolean") return v ? "t" : "f";
  if (typeof v === "number" || typeof v === "bigint") return `#${formatNumber(v)}`;
  if (typeof v === "string") return JSON.stringify(v);
  if (v instanceof DecimalNumber) {
    return v.sameAsDouble ? `#${formatNumber(v.value)}` : `#d${decimalKey(v.exact)}`;
  }
  if (Array.isArray(v)) return `[${v.map(canonicalKey).join(",")}]`;
  if (v instanceof RegoSet) return `<${v.sorted().map(canonicalKey).join(",")}>`;
  return `{${v
    .sortedEntries()
    .map(([k, x]) => `${canonicalKey(k)}:${canonicalKey(x)}`)
    .join(",")}}`;
}

/** The values of two maps, one after the other. */
function* chain<T>(first: Map<unknown, T>, second: Map<unknown, T>): IterableIterator<T> {
  yield* first.values();
  yield* second.values();
}

/** Orders object entries by key; string keys (the usual case) compare directly. */
function compareEntryKeys(a: [Value, Value], b: [Value, Value]): number {
  const x = a[0];
  const y = b[0];
  if (typeof x === "string" && typeof y === "string") return x < y ? -1 : x > y ? 1 : 0;
  return compare(x, y);
}

/** An object: keys of any value kind, each once. Iteration follows insertion order. */
export class RegoObject {
  private readonly prim = new Map<MapKey, [Value, Value]>();
  private readonly comp = new Map<string, [Value, Value]>();
  private sortedCache: [Value, Value][] | undefined;

  static fromEntries(entries: Iterable<[Value, Value]>): RegoObject {
    const o = new RegoObject();
    for (const [k, v] of entries) o.set(k, v);
    return o;
  }

  get size(): number {
    return this.prim.size + this.comp.size;
  }

  get(key: Value): Value | undefined {
    if (typeof key === "string") return this.prim.get(key)?.[1];
    const { primitive, key: mk } = mapKey(key);
    return (primitive ? this.prim.get(mk) : this.comp.get(mk as string))?.[1];
  }

  has(key: Value): boolean {
    return this.get(key) !== undefined;
  }

  /** Adds or replaces a key. Only for use while building a new object. */
  set(key: Value, value: Value): this {
    if (typeof key === "string") {
      // The common case (JSON objects), without mapKey's result object.
      this.prim.set(key, [key, value]);
      this.sortedCache = undefined;
      return this;
    }
    const { primitive, key: mk } = mapKey(key);
    if (primitive) this.prim.set(mk, [key, value]);
    else this.comp.set(mk as string, [key, value]);
    this.sortedCache = undefined;
    return this;
  }

  /** Removes a key. Only for use while building a new object. */
  delete(key: Value): void {
    const { primitive, key: mk } = mapKey(key);
    if (primitive) this.prim.delete(mk);
    else this.comp.delete(mk as string);
    this.sortedCache = undefined;
  }

  entries(): IterableIterator<[Value, Value]> {
    // Most objects have primitive keys only: hand out the map's own (fast) iterator.
    return this.comp.size === 0 ? this.prim.values() : chain(this.prim, this.comp);
  }

  *keys(): IterableIterator<Value> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): IterableIterator<Value> {
    for (const [, v] of this.entries()) yield v;
  }

  /** Entries ordered by key, as OPA iterates and compares objects. */
  sortedEntries(): [Value, Value][] {
    if (!this.sortedCache) {
      const all = Array.from(this.prim.values());
      for (const e of this.comp.values()) all.push(e);
      this.sortedCache = all.sort(compareEntryKeys);
    }
    return this.sortedCache;
  }
}

/** A set of values, each once. */
export class RegoSet {
  private readonly prim = new Map<MapKey, Value>();
  private readonly comp = new Map<string, Value>();
  private sortedCache: Value[] | undefined;

  static of(values: Iterable<Value>): RegoSet {
    const s = new RegoSet();
    for (const v of values) s.add(v);
    return s;
  }

  get size(): number {
    return this.prim.size + this.comp.size;
  }

  has(v: Value): boolean {
    if (typeof v === "string") return this.prim.has(v);
    const { primitive, key } = mapKey(v);
    return primitive ? this.prim.has(key) : this.comp.has(key as string);
  }

  /** Adds a value. Only for use while building a new set. */
  add(v: Value): this {
    const { primitive, key } = mapKey(v);
    if (primitive) {
      if (!this.prim.has(key)) this.prim.set(key, v);
    } else if (!this.comp.has(key as string)) this.comp.set(key as string, v);
    this.sortedCache = undefined;
    return this;
  }

  values(): IterableIterator<Value> {
    return this.comp.size === 0 ? this.prim.values() : chain(this.prim, this.comp);
  }

  [Symbol.iterator](): IterableIterator<Value> {
    return this.values();
  }

  /** Members in OPA's sort order. */
  sorted(): Value[] {
    if (!this.sortedCache) this.sortedCache = [...this.values()].sort(compare);
    return this.sortedCache;
  }
}

export type TypeName = "null" | "boolean" | "number" | "string" | "array" | "object" | "set";

/** OPA's type name of a value, as `type_name` returns it. */
export function typeName(v: Value): TypeName {
  if (v === null) return "null";
  switch (typeof v) {
    case "boolean":
      return "boolean";
    case "number":
    case "bigint":
      return "number";
    case "string":
      return "string";
  }
  if (Array.isArray(v)) return "array";
  if (v instanceof DecimalNumber) return "number";
  return v instanceof RegoSet ? "set" : "object";
}

const kindRank: Record<TypeName, number> = {
  null: 0,
  boolean: 1,
  number: 2,
  string: 3,
  array: 4,
  object: 5,
  set: 6,
};

/** OPA's total order: null < boolean < number < string < array < object < set. */
export function compare(a: Value, b: Value): number {
  const ta = typeName(a);
  const tb = typeName(b);
  if (ta !== tb) return kindRank[ta] - kindRank[tb];
  switch (ta) {
    case "null":
      return 0;
    case "boolean":
      return a === b ? 0 : a ? 1 : -1;
    case "number":
      return compareNumbers(a as RegoNumber, b as RegoNumber);
    case "string":
      return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
    case "array":
      return compareSequences(a as Value[], b as Value[]);
    case "set":
      return compareSequences((a as RegoSet).sorted(), (b as RegoSet).sorted());
    case "object":
      return compareObjects(a as RegoObject, b as RegoObject);
  }
}

function compareSequences(a: Value[], b: Value[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compare(a[i] as Value, b[i] as Value);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

function compareObjects(a: RegoObject, b: RegoObject): number {
  const ea = a.sortedEntries();
  const eb = b.sortedEntries();
  const n = Math.min(ea.length, eb.length);
  for (let i = 0; i < n; i++) {
    const [ka, va] = ea[i] as [Value, Value];
    const [kb, vb] = eb[i] as [Value, Value];
    const ck = compare(ka, kb);
    if (ck !== 0) return ck;
    const cv = compare(va, vb);
    if (cv !== 0) return cv;
  }
  return ea.length - eb.length;
}

/** Value equality (1 and 1.0 are equal, as in OPA). */
export function equal(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return isNumber(a) && isNumber(b) ? compareNumbers(a, b) === 0 : false;
  }
  return compare(a, b) === 0;
}

/** Converts parsed JSON (numbers already numbers) into a Value. */
export function fromJSON(x: unknown): Value {
  if (x === null || typeof x === "boolean" || typeof x === "string") return x;
  if (typeof x === "number") return x;
  if (typeof x === "bigint") return normalizeNumber(x);
  if (Array.isArray(x)) return x.map(fromJSON);
  if (x instanceof DecimalNumber) return x;
  if (x instanceof RegoObject || x instanceof RegoSet) return x;
  if (typeof x === "object") {
    const o = new RegoObject();
    const record = x as Record<string, unknown>;
    // Own enumerable keys in Object.entries order, without its array of pairs.
    for (const k of Object.keys(record)) {
      const v = record[k];
      if (v !== undefined) o.set(k, fromJSON(v));
    }
    return o;
  }
  throw new TypeError(`cannot convert ${typeof x} to a Rego value`);
}

/**
 * Converts a Value to plain JSON data: sets become sorted arrays, non-string object keys
 * are written as their JSON text (as OPA does), big integers stay bigint so that
 * `stringifyJSON` can print them exactly.
 */
export function toJSON(v: Value): unknown {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(toJSON);
  if (v instanceof RegoSet) return v.sorted().map(toJSON);
  if (v instanceof DecimalNumber) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of v.sortedEntries()) {
    out[typeof k === "string" ? k : stringifyJSON(k)] = toJSON(x);
  }
  return out;
}

/** Serialises a Value as JSON text, keeping big integers exact. */
export function stringifyJSON(v: Value, indent?: number): string {
  const json = toJSON(v);
  const text = JSON.stringify(
    json,
    (_k, x) => (typeof x === "bigint" ? `\u0000big:${x}` : x),
    indent,
  );
  return unmarkNumberTexts(text);
}
