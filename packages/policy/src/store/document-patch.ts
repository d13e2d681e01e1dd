/**
 * Copy-on-write edits of the base document (`data`) with the semantics of OPA's in-memory
 * store: `add` (set an object key, insert into an array or append with `-`), `remove` and
 * `replace`, plus `makeDir` for PUT's missing parents. Nothing is changed in place: every
 * edit returns a new root that shares the untouched branches with the old one, so a decision
 * that holds the old root keeps seeing it whole.
 */
import { RegoObject, type Value } from "../value/value.js";
import { StoreError } from "./store-error.js";

/** A JSON Patch operation OPA's store accepts. */
export type PatchOp = "add" | "remove" | "replace";

const GO_PATH_KEEPS: Readonly<Record<string, string>> = {
  "%24": "$",
  "%26": "&",
  "%2B": "+",
  "%2C": ",",
  "%3A": ":",
  "%3B": ";",
  "%3D": "=",
  "%40": "@",
};

/** One segment escaped as Go's url.PathEscape escapes it. */
function escapeSegment(segment: string): string {
  return encodeURIComponent(segment)
    .replace(/%(24|26|2B|2C|3A|3B|3D|40)/g, (m) => GO_PATH_KEEPS[m] ?? m)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A storage path as OPA prints it in error messages: `/a/b`, `/` for the root. */
export function storagePathText(path: readonly string[]): string {
  return `/${path.map(escapeSegment).join("/")}`;
}

function notFound(path: readonly string[], hint = "document does not exist") {
  return new StoreError("not_found", `storage_not_found_error: ${storagePathText(path)}: ${hint}`);
}

function writeConflict(path: readonly string[]) {
  return new StoreError("write_conflict", `storage_write_conflict_error: ${storagePathText(path)}`);
}

function invalidPatch(message: string) {
  return new StoreError("invalid_patch", `storage_invalid_patch_error: ${message}`);
}

/** The position `key` names in `array`; `end` allows one past the last element (insert). */
function arrayIndex(
  array: readonly Value[],
  key: string,
  path: readonly string[],
  end = false,
): number {
  if (!/^[+-]?\d+$/.test(key)) throw notFound(path, "array index must be integer");
  const pos = Number(key);
  if (pos < 0 || pos > array.length || (pos === array.length && !end)) {
    throw notFound(path, "array index out of range");
  }
  return pos;
}

/** The document at `path`, or undefined where it does not exist (as the store's Read). */
export function readPath(root: Value, path: readonly string[]): Value | undefined {
  let node: Value | undefined = root;
  for (const key of path) {
    if (node instanceof RegoObject) node = node.get(key);
    else if (Array.isArray(node)) {
      const pos = /^[+-]?\d+$/.test(key) ? Number(key) : -1;
      node = pos >= 0 && pos < node.length ? node[pos] : undefined;
    } else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/** A copy of `node` with `edit` applied to the container at `path[depth..]`'s parent. */
function rewrite(
  node: Value,
  path: readonly string[],
  depth: number,
  edit: (parent: Value) => Value,
): Value {
  if (depth === path.length - 1) return edit(node);
  const key = path[depth] as string;
  if (node instanceof RegoObject) {
    const child = node.get(key);
    if (child === undefined) throw notFound(path);
    return RegoObject.fromEntries(node.entries()).set(key, rewrite(child, path, depth + 1, edit));
  }
  if (Array.isArray(node)) {
    const pos = arrayIndex(node, key, path);
    const copy = node.slice();
    copy[pos] = rewrite(node[pos] as Value, path, depth + 1, edit);
    return copy;
  }
  throw notFound(path);
}

/** The edit of the last path segment inside its parent container. */
function editParent(op: PatchOp, path: readonly string[], value: Value | undefined) {
  const key = path[path.length - 1] as string;
  return (parent: Value): Value => {
    if (parent instanceof RegoObject) {
      if (op !== "add" && parent.get(key) === undefined) throw notFound(path);
      const copy = RegoObject.fromEntries(parent.entries());
      if (op === "remove") copy.delete(key);
      else copy.set(key, value as Value);
      return copy;
    }
    if (Array.isArray(parent)) {
      if (op === "add") {
        const pos = key === "-" ? parent.length : arrayIndex(parent, key, path, true);
        return [...parent.slice(0, pos), value as Value, ...parent.slice(pos)];
      }
      const pos = arrayIndex(parent, key, path);
      const copy = parent.slice();
      if (op === "remove") copy.splice(pos, 1);
      else copy[pos] = value as Value;
      return copy;
    }
    throw notFound(path);
  };
}

/**
 * The new root after one patch operation at `path`. Throws OPA's errors: 404
 * `resource_not_found` for a missing parent or target, 400 for the root's own rules.
 */
export function applyPatch(
  root: Value,
  op: PatchOp,
  path: readonly string[],
  value?: Value,
): Value {
  if (path.length === 0) {
    if (op === "remove") throw invalidPatch("root cannot be removed");
    if (!(value instanceof RegoObject)) throw invalidPatch("root must be object");
    return value;
  }
  return rewrite(root, path, 0, editParent(op, path, value));
}

/**
 * The new root with objects created along `dir` where documents are missing (OPA's
 * storage.MakeDir, `mkdir -p`). An existing non-object on the way is a write conflict,
 * 404 `resource_conflict`.
 */
export function makeDir(root: Value, dir: readonly string[]): Value {
  let existing = 0;
  while (existing < dir.length && readPath(root, dir.slice(0, existing + 1)) !== undefined) {
    existing++;
  }
  if (existing > 0 && !(readPath(root, dir.slice(0, existing)) instanceof RegoObject)) {
    throw writeConflict(dir.slice(0, existing));
  }
  let out = root;
  for (let i = existing; i < dir.length; i++) {
    out = applyPatch(out, "add", dir.slice(0, i + 1), new RegoObject());
  }
  return out;
}

/**
 * True when `path` holds a document, or its deepest existing ancestor is not an object
 * (OPA's storage.NonEmpty, which decides whether data conflicts with a rule there).
 */
export function nonEmpty(root: Value, path: readonly string[]): boolean {
  if (readPath(root, path) !== undefined) return true;
  for (let i = path.length - 1; i > 0; i--) {
    const v = readPath(root, path.slice(0, i));
    if (v !== undefined) return !(v instanceof RegoObject);
  }
  return false;
}
