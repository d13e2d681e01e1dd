/**
 * Paths into JSON documents as `json.filter`, `json.remove` and `json.patch` take them: a
 * string such as `"a/b/0"` (JSON-pointer escapes `~0` and `~1` allowed, leading slashes
 * optional) or an array of segments of any type. Several paths merge into a `PathTree`.
 */
import { BuiltinTypeError } from "../errors.js";
import { RegoObject, RegoSet, typeName, type Value } from "../value/value.js";
import { oneOfError } from "./args.js";

/** Splits a string path into segments; `""` is the root, `"/"` the empty-string key. */
export function parseStringPath(path: string): string[] {
  if (path === "") return [];
  return path
    .replace(/^\/+/, "")
    .split("/")
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** One path operand element (string or array of segments), or undefined when it is neither. */
export function parsePath(v: Value): Value[] | undefined {
  if (typeof v === "string") return parseStringPath(v);
  if (Array.isArray(v)) return v;
  return undefined;
}

/**
 * The paths of operand 2 of `json.filter`/`json.remove`: a set or array of paths, with OPA's
 * messages for a bad container or a bad element.
 */
export function pathsOperand(fn: string, v: Value): Value[][] {
  let elements: Value[];
  if (Array.isArray(v)) elements = v;
  else if (v instanceof RegoSet) elements = v.sorted();
  else throw oneOfError(fn, 2, ["set", "array"], v);
  return elements.map((element) => {
    const path = parsePath(element);
    if (path === undefined) {
      throw new BuiltinTypeError(
        `${fn}: operand 2 must be one of {set, array} containing string paths or array of path segments but got ${typeName(element)}`,
      );
    }
    return path;
  });
}

/**
 * Paths merged into a tree: an object per branching point, `null` where a path ends. A path
 * ending at a node covers everything below it, so a shorter path wins over a longer one.
 */
export type PathTree = RegoObject | null;

export function buildPathTree(paths: Value[][]): RegoObject {
  const root = new RegoObject();
  for (const path of paths) insertPath(root, path);
  return root;
}

function insertPath(root: RegoObject, path: Value[]): void {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i] as Value;
    if (i === path.length - 1) {
      node.set(segment, null);
      return;
    }
    const next = node.get(segment);
    if (next === null) return; // a shorter path already covers this one
    if (next instanceof RegoObject) {
      node = next;
    } else {
      const child = new RegoObject();
      node.set(segment, child);
      node = child;
    }
  }
}

/** The subtree for array element `i`: array indexes are matched as decimal strings. */
export function treeForIndex(tree: RegoObject, i: number): Value | undefined {
  return tree.get(String(i));
}
