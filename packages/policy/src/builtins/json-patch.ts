/**
 * `json.patch(doc, ops)`: RFC 6902 operations (add, remove, replace, move, copy, test) applied
 * in order, as OPA applies them. Beyond JSON it edits sets (a segment names a member) and
 * objects with non-string keys (a path may be an array of segments). A patch that cannot be
 * applied makes the result undefined, as in OPA.
 */
import { isInteger, isNumber, toFloat } from "../value/number.js";
import { equal, RegoObject, RegoSet, type Value } from "../value/value.js";
import { asArray } from "./args.js";
import { parsePath } from "./json-paths.js";
import type { BuiltinDef } from "./registry-types.js";

/** Why a patch could not be applied; turned into an undefined result. */
class PatchFailure extends Error {}

function fail(message: string): never {
  throw new PatchFailure(message);
}

/** An array index segment: a decimal string without leading zeros, or an integer. */
function arrayIndex(segment: Value): number | undefined {
  if (typeof segment === "string") {
    return /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : undefined;
  }
  if (isNumber(segment) && isInteger(segment)) return toFloat(segment);
  return undefined;
}

/** The child of `v` at `segment`, or undefined. */
function childOf(v: Value, segment: Value): Value | undefined {
  if (v instanceof RegoObject) return v.get(segment);
  if (v instanceof RegoSet) return v.has(segment) ? segment : undefined;
  if (Array.isArray(v)) {
    const i = arrayIndex(segment);
    return i !== undefined && i < v.length ? v[i] : undefined;
  }
  return undefined;
}

/** The value at `path`, failing when any step is missing. */
function valueAt(doc: Value, path: Value[]): Value {
  let cur = doc;
  for (const segment of path) {
    const next = childOf(cur, segment);
    if (next === undefined) fail("path does not exist");
    cur = next;
  }
  return cur;
}

/** `parent` with its child at `segment` (known to exist) replaced by `child`. */
function withChild(parent: Value, segment: Value, child: Value): Value {
  if (parent instanceof RegoObject)
    return RegoObject.fromEntries(parent.entries()).set(segment, child);
  if (parent instanceof RegoSet) {
    const out = RegoSet.of([...parent].filter((m) => !equal(m, segment)));
    return out.add(child);
  }
  const copy = [...(parent as Value[])];
  copy[arrayIndex(segment) as number] = child;
  return copy;
}

/** Rebuilds `doc` with `edit` applied to the parent of the path's last segment. */
function editParent(doc: Value, path: Value[], edit: (parent: Value, key: Value) => Value): Value {
  const [head, ...rest] = path as [Value, ...Value[]];
  if (rest.length === 0) return edit(doc, head);
  const child = childOf(doc, head);
  if (child === undefined) fail("parent path does not exist");
  return withChild(doc, head, editParent(child, rest, edit));
}

function insertChild(parent: Value, key: Value, value: Value): Value {
  if (parent instanceof RegoObject) return RegoObject.fromEntries(parent.entries()).set(key, value);
  if (parent instanceof RegoSet) {
    if (!equal(key, value)) fail("set member and value differ");
    return RegoSet.of(parent).add(value);
  }
  if (Array.isArray(parent)) {
    const i = key === "-" ? parent.length : arrayIndex(key);
    if (i === undefined || i > parent.length) fail("array index out of bounds");
    return [...parent.slice(0, i), value, ...parent.slice(i)];
  }
  return fail("cannot add to a scalar");
}

function removeChild(parent: Value, key: Value): Value {
  if (childOf(parent, key) === undefined) fail("target does not exist");
  if (parent instanceof RegoObject) {
    const out = RegoObject.fromEntries(parent.entries());
    out.delete(key);
    return out;
  }
  if (parent instanceof RegoSet) return RegoSet.of([...parent].filter((m) => !equal(m, key)));
  const i = arrayIndex(key) as number;
  return (parent as Value[]).filter((_, j) => j !== i);
}

function add(doc: Value, path: Value[], value: Value): Value {
  if (path.length === 0) return value;
  return editParent(doc, path, (parent, key) => insertChild(parent, key, value));
}

/**
 * The document after `remove` of the root path: nothing, until an `add` (or `copy`) at the
 * root puts a document back, as OPA's edit tree allows. Any other operation on it fails.
 */
const REMOVED = Symbol("removed document");
type Doc = Value | typeof REMOVED;

function remove(doc: Value, path: Value[]): Doc {
  if (path.length === 0) return REMOVED;
  return editParent(doc, path, removeChild);
}

function replace(doc: Value, path: Value[], value: Value): Value {
  if (path.length === 0) return value;
  return editParent(doc, path, (parent, key) => insertChild(removeChild(parent, key), key, value));
}

/** Applies one operation object to `doc`. */
function applyOperation(current: Doc, op: Value): Doc {
  if (!(op instanceof RegoObject)) fail("operation is not an object");
  if (current === REMOVED) return applyToRemoved(op);
  const doc = current;
  const attribute = (name: string): Value => {
    const v = op.get(name);
    return v === undefined ? fail(`missing '${name}' attribute`) : v;
  };
  const pathOf = (name: string): Value[] => parsePath(attribute(name)) ?? fail(`bad '${name}'`);
  const kind = attribute("op");
  const path = pathOf("path");
  switch (kind) {
    case "add":
      return add(doc, path, attribute("value"));
    case "remove":
      return remove(doc, path);
    case "replace":
      return replace(doc, path, attribute("value"));
    case "move": {
      const from = pathOf("from");
      const moved = valueAt(doc, from);
      const rest = remove(doc, from);
      if (rest === REMOVED) return path.length === 0 ? moved : fail("path does not exist");
      return add(rest, path, moved);
    }
    case "copy":
      return add(doc, path, valueAt(doc, pathOf("from")));
    case "test":
      if (!equal(valueAt(doc, path), attribute("value"))) fail("test failed");
      return doc;
    default:
      return fail("unrecognized op");
  }
}

/** After the root was removed, only an `add` at the root applies. */
function applyToRemoved(op: RegoObject): Value {
  const path = parsePath(op.get("path") ?? null);
  const value = op.get("value");
  if (op.get("op") === "add" && path?.length === 0 && value !== undefined) return value;
  return fail("the document was removed");
}

/** The patched document, or undefined when an operation fails. */
export function applyJsonPatch(doc: Value, operations: Value[]): Value | undefined {
  try {
    const out = operations.reduce<Doc>(applyOperation, doc);
    return out === REMOVED ? undefined : out;
  } catch (e) {
    if (e instanceof PatchFailure) return undefined;
    throw e;
  }
}

export const jsonPatchBuiltin: BuiltinDef = {
  name: "json.patch",
  args: ["any", "array[object]"],
  result: "any",
  impl: ([doc, ops]) => applyJsonPatch(doc as Value, asArray("json.patch", ops as Value, 2)),
};
