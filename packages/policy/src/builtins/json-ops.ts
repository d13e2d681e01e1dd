/**
 * Structural JSON builtins: `json.filter` (keep only the given paths), `json.remove` (drop
 * them) and `json.patch` (RFC 6902, in json-patch.ts).
 */
import { RegoObject, RegoSet, type Value } from "../value/value.js";
import { asObject } from "./args.js";
import { jsonPatchBuiltin } from "./json-patch.js";
import { buildPathTree, pathsOperand, treeForIndex } from "./json-paths.js";
import type { BuiltinDef } from "./registry-types.js";

/** `doc` reduced to the parts the tree selects; `null` selects the whole value. */
function filterValue(doc: Value, tree: Value): Value {
  if (!(tree instanceof RegoObject)) return doc;
  if (doc instanceof RegoObject) {
    const out = new RegoObject();
    for (const [k, v] of doc.entries()) {
      const sub = tree.get(k);
      if (sub !== undefined) out.set(k, filterValue(v, sub));
    }
    return out;
  }
  if (Array.isArray(doc)) {
    const out: Value[] = [];
    doc.forEach((v, i) => {
      const sub = treeForIndex(tree, i);
      if (sub !== undefined) out.push(filterValue(v, sub));
    });
    return out;
  }
  if (doc instanceof RegoSet) {
    const out = new RegoSet();
    for (const v of doc) {
      const sub = tree.get(v);
      if (sub !== undefined) out.add(filterValue(v, sub));
    }
    return out;
  }
  return doc;
}

/** `doc` without the parts the tree selects; undefined when the whole value is removed. */
function removeValue(doc: Value, tree: Value | undefined): Value | undefined {
  if (tree === undefined) return doc;
  if (tree === null) return undefined;
  const branches = tree as RegoObject;
  if (doc instanceof RegoObject) {
    const out = new RegoObject();
    for (const [k, v] of doc.entries()) {
      const kept = removeValue(v, branches.get(k));
      if (kept !== undefined) out.set(k, kept);
    }
    return out;
  }
  if (Array.isArray(doc)) {
    const out: Value[] = [];
    doc.forEach((v, i) => {
      const kept = removeValue(v, treeForIndex(branches, i));
      if (kept !== undefined) out.push(kept);
    });
    return out;
  }
  if (doc instanceof RegoSet) {
    const out = new RegoSet();
    for (const v of doc) {
      const kept = removeValue(v, branches.get(v));
      if (kept !== undefined) out.add(kept);
    }
    return out;
  }
  return doc;
}

const pathsType = "array[string | array] | set[string | array]";

export const jsonOpsBuiltins: BuiltinDef[] = [
  {
    name: "json.filter",
    args: ["object", pathsType],
    result: "any",
    impl: ([o, paths]) => {
      const doc = asObject("json.filter", o as Value, 1);
      return filterValue(doc, buildPathTree(pathsOperand("json.filter", paths as Value)));
    },
  },
  {
    name: "json.remove",
    args: ["object", pathsType],
    result: "any",
    impl: ([o, paths]) => {
      const doc = asObject("json.remove", o as Value, 1);
      const tree = buildPathTree(pathsOperand("json.remove", paths as Value));
      return removeValue(doc, tree);
    },
  },
  jsonPatchBuiltin,
];
