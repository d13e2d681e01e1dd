/**
 * Data documents: JSON or YAML text turned into Rego values (integers keep every digit), and
 * the deep merge that places each document in `data`, refusing conflicting leaves.
 */
import { parse as parseYaml } from "yaml";
import { jsonTextDepthExceeds, MAX_VALUE_DEPTH, yamlNestingExceeds } from "../value/depth.js";
import { readJSON } from "../value/json-reader.js";
import { equal, fromJSON, RegoObject, type Value } from "../value/value.js";

/** Digits runs this long may not survive JSON.parse as floats; read those texts exactly. */
const LONG_NUMBER = /\d{16}/;

/** Parses JSON text to a Value; throws with the parser's message on malformed text. */
export function parseJsonValue(text: string): Value {
  if (LONG_NUMBER.test(text)) return readJSON(text);
  return fromJSON(JSON.parse(text));
}

/** Parses YAML text (a superset of JSON) to a Value. */
export function parseYamlValue(text: string): Value {
  const parsed: unknown = parseYaml(text, { intAsBigInt: true });
  return fromJSON(parsed === undefined ? null : parsed);
}

/** Parses a data file by its extension (.json, .yaml, .yml). */
export function parseDataText(fileName: string, text: string): Value {
  const yaml = /\.ya?ml$/i.test(fileName);
  // Values are compared and written by recursion: a document deeper than the engine's value
  // limit is refused by name here rather than failing later with a stack overflow.
  const tooDeep = yaml
    ? yamlNestingExceeds(text, MAX_VALUE_DEPTH)
    : jsonTextDepthExceeds(text, MAX_VALUE_DEPTH);
  if (tooDeep) throw new Error(`document nesting exceeds the maximum depth of ${MAX_VALUE_DEPTH}`);
  return yaml ? parseYamlValue(text) : parseJsonValue(text);
}

/** A merge that met two different values at one path. */
export class MergeConflict extends Error {
  constructor(readonly path: string[]) {
    super(`merge error: conflicting values at data${path.map((p) => `.${p}`).join("")}`);
    this.name = "MergeConflict";
  }
}

function mergeValues(a: Value, b: Value, path: string[]): Value {
  if (a instanceof RegoObject && b instanceof RegoObject) {
    const out = RegoObject.fromEntries(a.entries());
    for (const [k, v] of b.entries()) {
      const existing = out.get(k);
      out.set(k, existing === undefined ? v : mergeValues(existing, v, [...path, String(k)]));
    }
    return out;
  }
  if (equal(a, b)) return a;
  throw new MergeConflict(path);
}

/** Wraps `value` in objects so that it sits at `path` below the root. */
function nest(path: string[], value: Value): Value {
  let out = value;
  for (let i = path.length - 1; i >= 0; i--)
    out = RegoObject.fromEntries([[path[i] as string, out]]);
  return out;
}

/**
 * Merges `value` into `root` at `path`, returning a new root; throws MergeConflict when a
 * leaf would be replaced by a different value.
 */
export function mergeAt(root: RegoObject, path: string[], value: Value): RegoObject {
  return mergeValues(root, nest(path, value), []) as RegoObject;
}
