/**
 * Data/policy path conflicts: a rule may not define a document that base data (the JSON
 * loaded into `data`) already holds. OPA checks this when it compiles modules against its
 * store and reports `rego_compile_error: conflicting rule for data path a/b found`.
 */
import type { Rule } from "../ast/nodes.js";
import { RegoError } from "../errors.js";
import { RegoObject, type Value } from "../value/value.js";
import type { RuleNode } from "./tree.js";

/**
 * True when base data occupies `path`: a value is stored there, or a prefix of the path
 * holds something other than an object (so that nothing could be stored below it).
 */
function occupied(data: Value, path: readonly string[]): boolean {
  let cur: Value = data;
  for (const key of path) {
    if (!(cur instanceof RegoObject)) return true;
    const next = cur.get(key);
    if (next === undefined) return false;
    cur = next;
  }
  return true;
}

/** The first rule that defines the node's document, for the error's location. */
function firstRule(node: RuleNode): Rule | undefined {
  return node.rules[0]?.rule ?? node.defaultRule ?? node.keyedDefaults[0]?.rule;
}

/**
 * Every rule-tree node with rules whose path base data occupies. As in OPA, the nodes below
 * a conflicting node are not examined again.
 */
export function dataConflicts(root: RuleNode, data: Value): RegoError[] {
  const errors: RegoError[] = [];
  const visit = (node: RuleNode): void => {
    const rule = firstRule(node);
    if (rule && node.path.length > 0 && occupied(data, node.path)) {
      errors.push(
        new RegoError(
          "rego_compile_error",
          `conflicting rule for data path ${node.path.join("/")} found`,
          { file: rule.loc.file, row: rule.loc.row, col: rule.loc.col },
        ),
      );
      return;
    }
    for (const child of node.children.values()) visit(child);
  };
  visit(root);
  return errors;
}
