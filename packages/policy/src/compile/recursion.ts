/**
 * Recursion detection: a rule (or function) whose evaluation can reach itself through the
 * documents and functions it references is a `rego_recursion_error`.
 */
import type { Term } from "../ast/nodes.js";
import { RegoError } from "../errors.js";
import { visitRule } from "./calls.js";
import type { RuleNode } from "./tree.js";

/** The rule nodes a `data` ref can reach: the node it names, or every node below it. */
function refTargets(root: RuleNode, path: (string | undefined)[], out: Set<RuleNode>): void {
  let node = root;
  for (const key of path) {
    if (node.hasRules) {
      out.add(node);
      return;
    }
    // A computed key: the target is only known at run time, where recursion is caught.
    if (key === undefined) return;
    const next = node.children.get(key);
    if (!next) return;
    node = next;
  }
  collectAll(node, out);
}

function collectAll(node: RuleNode, out: Set<RuleNode>): void {
  if (node.hasRules) out.add(node);
  for (const c of node.children.values()) collectAll(c, out);
}

function dependencies(root: RuleNode, node: RuleNode): Set<RuleNode> {
  const out = new Set<RuleNode>();
  const heads = new WeakSet<Term>();
  const visit = (t: Term) => {
    if (t.type === "ref") heads.add(t.head);
    if (t.type === "ref" && t.head.type === "var" && t.head.name === "data") {
      const path = t.path.map((p) =>
        p.type === "scalar" && typeof p.value === "string" ? p.value : undefined,
      );
      refTargets(root, path, out);
    } else if (t.type === "var" && t.name === "data" && !heads.has(t)) {
      collectAll(root, out);
    } else if (t.type === "call" && t.name.startsWith("data.")) {
      const target = root.find(t.name.split(".").slice(1));
      if (target) out.add(target);
    }
  };
  for (const r of node.rules) visitRule(r.rule, visit);
  if (node.defaultRule) visitRule(node.defaultRule, visit);
  return out;
}

/** Reports every cycle among rule nodes once. */
export function checkRecursion(root: RuleNode, errors: RegoError[]): void {
  const nodes: RuleNode[] = [];
  const gather = (n: RuleNode) => {
    if (n.hasRules) nodes.push(n);
    for (const c of n.children.values()) gather(c);
  };
  gather(root);
  const deps = new Map<RuleNode, Set<RuleNode>>();
  for (const n of nodes) deps.set(n, dependencies(root, n));
  const state = new Map<RuleNode, "active" | "done">();
  const stack: RuleNode[] = [];
  const reported = new Set<RuleNode>();
  const dfs = (n: RuleNode) => {
    state.set(n, "active");
    stack.push(n);
    for (const d of deps.get(n) ?? []) {
      const s = state.get(d);
      if (s === "active") {
        if (reported.has(d)) continue;
        reported.add(d);
        const cycle = stack.slice(stack.indexOf(d)).map((x) => x.dottedPath);
        const rule = d.rules[0]?.rule ?? d.defaultRule;
        const loc = rule?.loc;
        errors.push(
          new RegoError(
            "rego_recursion_error",
            `rule ${d.dottedPath} is recursive: ${[...cycle, d.dottedPath].join(" -> ")}`,
            loc ? { file: loc.file, row: loc.row, col: loc.col } : undefined,
          ),
        );
      } else if (s === undefined) dfs(d);
    }
    stack.pop();
    state.set(n, "done");
  };
  for (const n of nodes) if (!state.has(n)) dfs(n);
}
